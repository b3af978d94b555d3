// Keeps the C library from handing large freed blocks back to the kernel. The Explorer allocates
// and frees tables of several megabytes on every edit and slider step (262,144 probabilities,
// names and orders); with glibc's defaults those come from fresh mmap()ed pages each time, and
// faulting the pages in cost more than the work itself (a logit edit at V = 262,144: 50 ms with
// the defaults, 15 ms with this; docs/benchmarks.md). Call once, first thing in main().
#pragma once

namespace logitlab::app {

void keepLargeAllocations();

}  // namespace logitlab::app
