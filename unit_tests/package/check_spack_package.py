#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the Spack recipe without Spack: parses it with ast and compares it
with CMakeLists.txt and cmake/KobaltKokkos.cmake. Fails (exit 1, every
problem listed) unless
  - it defines class Kobalt(CMakePackage, CudaPackage, ROCmPackage);
  - it has the variants tests, perf_tests, kokkos-kernels and cusparse;
  - every variant is mapped by define_from_variant("KOBALT_...", "variant")
    in cmake_args, to an option(...) that CMakeLists.txt declares, or passed
    to Kokkos (depends_on("kokkos+V", when="+V")), and every
    define_from_variant names a declared variant;
  - every define("NAME", ...) is an option of CMakeLists.txt, a CMAKE_
    variable or Kokkos_ROOT;
  - its versions include project(Kobalt VERSION x.y.z);
  - it follows the conventions of the Kokkos-based packages of
    spack-packages: depends_on("cxx", type="build"); a Kokkos range with an
    upper bound, the one cmake/KobaltKokkos.cmake accepts; every cuda_arch
    and amdgpu_target passed to Kokkos (+cuda cuda_arch=X needs
    kokkos+cuda cuda_arch=X, the same for +rocm amdgpu_target=X); hipcc as
    the compiler for +rocm, Kokkos' kokkos_cxx otherwise.
Directives inside for loops are expanded over literal sequences and dicts
of the class body; a loop over another sequence (CudaPackage.cuda_arch_values)
stands for its items as <that expression>.
Usage: check_spack_package.py package.py CMakeLists.txt
"""
import ast
import re
import sys

REQUIRED_VARIANTS = {"tests", "perf_tests", "kokkos-kernels", "cusparse"}
REQUIRED_BASES = {"CMakePackage", "CudaPackage", "ROCmPackage"}


def call_name(node):
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def text(node, env):
    """A string argument with the loop variables of env filled in, or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value))
            elif isinstance(part, ast.FormattedValue) and isinstance(part.value, ast.Name) \
                    and part.value.id in env:
                out.append(env[part.value.id])
            else:
                return None
        return "".join(out)
    if isinstance(node, ast.Name) and node.id in env:
        return env[node.id]
    return None


def loop_items(node, literals):
    """The items a class-body loop runs over: strings where they are literal
    (a tuple, list or dict, or a name bound to one), else one symbolic item."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "items":
        node = node.func.value
    if isinstance(node, ast.Name) and node.id in literals:
        node = literals[node.id]
    if isinstance(node, ast.Dict):
        node = ast.Tuple(elts=node.keys)
    if isinstance(node, (ast.Tuple, ast.List)) and all(
            isinstance(e, ast.Constant) and isinstance(e.value, str) for e in node.elts):
        return [e.value for e in node.elts]
    return [f"<{ast.unparse(node)}>"]


def directives(body, literals, env=None):
    """(name, [string args], {keyword: string}) for every directive call in a
    class body, for loops expanded."""
    env = env or {}
    out = []
    for stmt in body:
        if isinstance(stmt, ast.For):
            target = stmt.target.elts[0] if isinstance(stmt.target, ast.Tuple) else stmt.target
            for item in loop_items(stmt.iter, literals):
                out += directives(stmt.body, literals, {**env, target.id: item})
        elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            args = [text(a, env) for a in call.args]
            kwargs = {k.arg: text(k.value, env) for k in call.keywords if k.arg}
            out.append((call_name(call), args, kwargs))
        elif isinstance(stmt, (ast.With, ast.If)):
            out += directives(stmt.body, literals, env)
    return out


def kokkos_range(cmake_dir):
    """(min version, max major) from cmake/KobaltKokkos.cmake."""
    try:
        src = open(f"{cmake_dir}/cmake/KobaltKokkos.cmake").read()
    except OSError:
        return None, None
    low = re.search(r"set\(KOBALT_KOKKOS_MIN_VERSION\s+([0-9.]+)\)", src)
    high = re.search(r"set\(KOBALT_KOKKOS_MAX_MAJOR\s+([0-9]+)\)", src)
    return (low.group(1) if low else None), (high.group(1) if high else None)


def main(package_path, cmake_path):
    problems = []
    tree = ast.parse(open(package_path).read(), package_path)
    cmake = open(cmake_path).read()
    # option(NAME ...) or kobalt_dependency_option(NAME ...), which wraps it.
    options = set(re.findall(r"^\s*(?:kobalt_dependency_)?option\(\s*(\w+)", cmake, re.M))
    project = re.search(r"project\(\s*Kobalt\s+VERSION\s+([0-9.]+)", cmake)

    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Kobalt"]
    if len(classes) != 1:
        problems.append("no (or more than one) class Kobalt")
        return problems
    cls = classes[0]
    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", None) for b in cls.bases}
    for base in sorted(REQUIRED_BASES - bases):
        problems.append(f"class Kobalt does not derive from {base} (bases: {sorted(map(str, bases))})")

    # Directives are calls in the class body (also inside loops); cmake_args is a method.
    literals = {t.id: stmt.value for stmt in cls.body if isinstance(stmt, ast.Assign)
                for t in stmt.targets if isinstance(t, ast.Name)}
    found = directives([s for s in cls.body if not isinstance(s, ast.FunctionDef)], literals)
    variants = {args[0] for name, args, _ in found if name == "variant" and args and args[0]}
    versions = {args[0] for name, args, _ in found if name == "version" and args and args[0]}
    depends = [(args[0], kw.get("when"), kw.get("type")) for name, args, kw in found
               if name == "depends_on" and args and args[0]]
    to_kokkos = {v for v in variants if (f"kokkos+{v}", f"+{v}", None) in depends}

    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    if "cmake_args" not in methods:
        problems.append("no cmake_args method")
        return problems
    mapped = {}
    for node in ast.walk(methods["cmake_args"]):
        if not isinstance(node, ast.Call):
            continue
        args = [text(a, {}) for a in node.args]
        if call_name(node) == "define_from_variant" and len(args) == 2 and None not in args:
            option, variant = args
            mapped[variant] = option
            if option not in options:
                problems.append(f"variant {variant} maps to {option}, which CMakeLists.txt does not declare")
            if variant not in variants:
                problems.append(f"define_from_variant({option!r}, {variant!r}): no such variant")
        elif call_name(node) == "define" and args and args[0]:
            if args[0] not in options and not args[0].startswith("CMAKE_") and args[0] != "Kokkos_ROOT":
                problems.append(f"define({args[0]!r}): not an option of CMakeLists.txt")

    for v in sorted(REQUIRED_VARIANTS - variants):
        problems.append(f"missing variant {v}")
    for v in sorted(variants - set(mapped) - to_kokkos):
        problems.append(f"variant {v} is neither passed to CMake (define_from_variant) nor to Kokkos")
    if not project:
        problems.append("CMakeLists.txt has no project(Kobalt VERSION ...)")
    elif project.group(1) not in versions:
        problems.append(f"no version({project.group(1)!r}) for project(Kobalt VERSION {project.group(1)})")

    # The conventions of spack-packages' Kokkos-based recipes.
    if ("cxx", None, "build") not in depends:
        problems.append('no depends_on("cxx", type="build")')
    low, high = kokkos_range(re.sub(r"/?CMakeLists\.txt$", "", cmake_path) or ".")
    ranges = [spec for spec, when, _ in depends if when is None and re.fullmatch(r"kokkos@[0-9.:]+", spec)]
    expected = f"kokkos@{low}:{high}"
    if not low or not high:
        problems.append("cmake/KobaltKokkos.cmake sets no KOBALT_KOKKOS_MIN_VERSION / KOBALT_KOKKOS_MAX_MAJOR")
    elif ranges != [expected]:
        problems.append(f"the Kokkos range is {ranges or 'missing'}, not [{expected!r}] "
                        "(cmake/KobaltKokkos.cmake's, with an upper bound)")
    for variant, values, base in (("cuda_arch", "CudaPackage.cuda_arch_values", "cuda"),
                                  ("amdgpu_target", "ROCmPackage.amdgpu_targets", "rocm")):
        item = f"<{values}>"
        if (f"kokkos+{base} {variant}={item}", f"+{base} {variant}={item}", None) not in depends:
            problems.append(f'{variant} is not passed to Kokkos: no depends_on(f"kokkos+{base} {variant}={{x}}", '
                            f'when=f"+{base} {variant}={{x}}") for x in {values}')
    compilers = {n.attr for n in ast.walk(methods["cmake_args"]) if isinstance(n, ast.Attribute)}
    for attr in ("hipcc", "kokkos_cxx"):
        if attr not in compilers:
            problems.append(f"cmake_args does not use {attr} for CMAKE_CXX_COMPILER")

    if not problems:
        print(f"{package_path}: class Kobalt({', '.join(sorted(bases))}), versions {sorted(versions)}, "
              f"{expected}, variants -> options: {', '.join(f'{v} -> {mapped[v]}' for v in sorted(mapped))}; "
              f"to Kokkos: {', '.join(sorted(to_kokkos))}, cuda_arch, amdgpu_target")
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    found = main(sys.argv[1], sys.argv[2])
    for p in found:
        print(f"{sys.argv[1]}: {p}", file=sys.stderr)
    sys.exit(1 if found else 0)
