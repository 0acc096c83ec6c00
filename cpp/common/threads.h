// Fork-join over a fixed number of work shares, for the searches, self-play, the VecEnv, random
// play and batched network evaluation.
#pragma once
#include <exception>
#include <new>
#include <system_error>
#include <thread>
#include <vector>

namespace rosen {

// Runs work(0), ..., work(n - 1) and returns when all are done: work(0) on the calling thread,
// each other share on a thread of its own. A thread the system refuses to start (std::system_error:
// a thread or process limit, no address space left for its stack) is no error: its share runs on
// the calling thread after work(0), so the result is the same, only slower. (Unwinding past a
// started std::thread that was never joined ends the process in std::terminate.) The shares must
// not wait for each other. An exception from a share on the calling thread is rethrown once every
// helper has been joined; the helpers' own shares must catch theirs.
template <typename Work>
void run_in_parallel(int n, const Work& work) {
    std::vector<std::thread> helpers;
    int started = 1;
    try {
        helpers.reserve(n > 1 ? std::size_t(n - 1) : 0);
        for (; started < n; ++started) helpers.emplace_back(work, started);
    } catch (const std::system_error&) {  // no thread for share `started` and those after it
    } catch (const std::bad_alloc&) {
    }
    std::exception_ptr error;
    try {
        work(0);
        for (int t = started; t < n; ++t) work(t);
    } catch (...) {
        error = std::current_exception();
    }
    for (auto& h : helpers) h.join();
    if (error) std::rethrow_exception(error);
}

}  // namespace rosen
