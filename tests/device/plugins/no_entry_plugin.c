/* A shared object that is not an nnrt plugin: it does not export nnrt_driver_get_api. */
__attribute__((visibility("default"))) int some_other_library_function(void) { return 42; }
