// Every kernel kvcheck loads, in one translation unit: one fatbin, one module.
#include "scan.cu"
#include "simulate.cu"
