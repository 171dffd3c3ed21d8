#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
"""Checks the Spack recipe without Spack: parses it with ast and compares it
with CMakeLists.txt. Fails (exit 1, every problem listed) unless
  - it defines class Kobalt(CMakePackage);
  - it has the variants tests, perf_tests, kokkos-kernels and cusparse;
  - every variant is mapped by define_from_variant("KOBALT_...", "variant")
    in cmake_args, to an option(...) that CMakeLists.txt declares, and every
    define_from_variant names a declared variant;
  - every define("NAME", ...) is an option of CMakeLists.txt or a CMAKE_ variable;
  - its versions include project(Kobalt VERSION x.y.z).
Usage: check_spack_package.py package.py CMakeLists.txt
"""
import ast
import re
import sys

REQUIRED_VARIANTS = {"tests", "perf_tests", "kokkos-kernels", "cusparse"}


def call_name(node):
    f = node.func
    return f.id if isinstance(f, ast.Name) else f.attr if isinstance(f, ast.Attribute) else None


def strings(node):
    """The leading string constants of a call's arguments."""
    out = []
    for a in node.args:
        if not (isinstance(a, ast.Constant) and isinstance(a.value, str)):
            break
        out.append(a.value)
    return out


def main(package_path, cmake_path):
    problems = []
    tree = ast.parse(open(package_path).read(), package_path)
    cmake = open(cmake_path).read()
    options = set(re.findall(r"^\s*option\(\s*(\w+)", cmake, re.M))
    project = re.search(r"project\(\s*Kobalt\s+VERSION\s+([0-9.]+)", cmake)

    classes = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "Kobalt"]
    if len(classes) != 1:
        problems.append("no (or more than one) class Kobalt")
        return problems
    cls = classes[0]
    bases = {b.id if isinstance(b, ast.Name) else getattr(b, "attr", None) for b in cls.bases}
    if "CMakePackage" not in bases:
        problems.append(f"class Kobalt derives from {sorted(map(str, bases))}, not CMakePackage")

    # Directives are calls in the class body (also inside loops); cmake_args is a method.
    variants, versions = set(), set()
    for stmt in cls.body:
        if isinstance(stmt, ast.FunctionDef):
            continue
        for node in ast.walk(stmt):
            if isinstance(node, ast.Call) and call_name(node) == "variant" and strings(node):
                variants.add(strings(node)[0])
            if isinstance(node, ast.Call) and call_name(node) == "version" and strings(node):
                versions.add(strings(node)[0])
    methods = {n.name: n for n in cls.body if isinstance(n, ast.FunctionDef)}
    if "cmake_args" not in methods:
        problems.append("no cmake_args method")
        return problems
    mapped = {}
    for node in ast.walk(methods["cmake_args"]):
        if not isinstance(node, ast.Call):
            continue
        args = strings(node)
        if call_name(node) == "define_from_variant" and len(args) == 2:
            option, variant = args
            mapped[variant] = option
            if option not in options:
                problems.append(f"variant {variant} maps to {option}, which CMakeLists.txt does not declare")
            if variant not in variants:
                problems.append(f"define_from_variant({option!r}, {variant!r}): no such variant")
        elif call_name(node) == "define" and args:
            if args[0] not in options and not args[0].startswith("CMAKE_"):
                problems.append(f"define({args[0]!r}): not an option of CMakeLists.txt")

    for v in sorted(REQUIRED_VARIANTS - variants):
        problems.append(f"missing variant {v}")
    for v in sorted(variants - set(mapped)):
        problems.append(f"variant {v} is not passed to CMake (define_from_variant)")
    if not project:
        problems.append("CMakeLists.txt has no project(Kobalt VERSION ...)")
    elif project.group(1) not in versions:
        problems.append(f"no version({project.group(1)!r}) for project(Kobalt VERSION {project.group(1)})")
    if not problems:
        print(f"{package_path}: class Kobalt(CMakePackage), versions {sorted(versions)}, "
              f"variants -> options: {', '.join(f'{v} -> {mapped[v]}' for v in sorted(mapped))}")
    return problems


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    found = main(sys.argv[1], sys.argv[2])
    for p in found:
        print(f"{sys.argv[1]}: {p}", file=sys.stderr)
    sys.exit(1 if found else 0)
