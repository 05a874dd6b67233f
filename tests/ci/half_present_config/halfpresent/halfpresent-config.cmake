# A package whose config is found but whose own REQUIRED dependency is not, as oneDNN's config is
# without OpenCL (tests/ci/optional_package_test.cmake).
find_package(InfergateNoSuchDependency REQUIRED)
