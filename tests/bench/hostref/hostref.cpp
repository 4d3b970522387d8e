// SPDX-License-Identifier: MIT
// SPDX-FileCopyrightText: 2026 StepScope authors
// `stepscope-bench-hostref FILE`: the best-kernel reference of `stepscope-bench import`.
// simdjson's On-Demand API is compiled only for the kernel a translation unit's compiler
// flags allow (its "builtin" implementation), so this tool is its own executable built with
// -march=native: On-Demand here runs the kernel simdjson would pick at run time for this CPU
// (get_active_implementation()), without mixing AVX-512 code into the importer's binary.
// Prints one line: "<seconds> <events> <sum of dur> <builtin kernel> <active kernel> <CPU
// seconds>" (wall and CPU time of the parse only, the file is read into memory first).
#include <simdjson.h>

#include <chrono>
#include <cstdio>
#include <ctime>

#define STEPSCOPE_STR2(x) #x
#define STEPSCOPE_STR(x) STEPSCOPE_STR2(x)
static const char *const StepscopeKernel = STEPSCOPE_STR(SIMDJSON_BUILTIN_IMPLEMENTATION);

namespace {

double cpuNow()
{
    timespec t {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) / 1e9;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc != 2) {
        std::fprintf(stderr, "usage: stepscope-bench-hostref FILE\n");
        return 2;
    }
    simdjson::padded_string json;
    if (simdjson::padded_string::load(argv[1]).get(json))
        return 1;
    const auto t0 = std::chrono::steady_clock::now();
    const double cpu0 = cpuNow();
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    if (parser.iterate(json).get(doc))
        return 1;
    simdjson::ondemand::array array;
    simdjson::ondemand::json_type type;
    if (doc.type().get(type))
        return 1;
    if (type == simdjson::ondemand::json_type::object) {
        if (doc["traceEvents"].get_array().get(array))
            return 1;
    } else if (doc.get_array().get(array)) {
        return 1;
    }
    unsigned long long events = 0;
    double sum = 0;
    for (auto element : array) {
        simdjson::ondemand::object obj;
        if (element.get_object().get(obj))
            return 1;
        ++events;
        double dur = 0;
        if (obj["dur"].get_double().get(dur) == simdjson::SUCCESS)
            sum += dur;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const double cpu = cpuNow() - cpu0;
    std::printf("%.6f %llu %.0f %s %s %.6f\n", seconds, events, sum,
        StepscopeKernel, // the header's builtin (this binary's On-Demand code); the library's
                         // builtin_implementation() reports its own baseline build instead
        simdjson::get_active_implementation()->name().c_str(), cpu);
    return 0;
}
