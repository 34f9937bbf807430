// CoreLease: exclusive work never overlaps shared holders or other exclusive work, every job runs
// exactly once, and waiting exclusive work keeps new shared holders out (no starvation).
#include <gtest/gtest.h>

#include <sched.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <set>
#include <shared_mutex>
#include <stdexcept>
#include <thread>
#include <utility>
#include <vector>

#include "plugins/cpu/core_lease.hpp"

namespace nnrt::cpu {
namespace {

struct Counters {
  std::atomic<int> exclusive{0}, shared{0}, overlaps{0}, runs{0};
};

void exclusiveWork(Counters& c) {
  if (c.exclusive.fetch_add(1) != 0 || c.shared.load() != 0) c.overlaps.fetch_add(1);
  std::this_thread::sleep_for(std::chrono::microseconds(50));
  if (c.shared.load() != 0) c.overlaps.fetch_add(1);
  c.exclusive.fetch_sub(1);
  c.runs.fetch_add(1);
}

TEST(CoreLeaseTest, ExclusiveWorkRunsOnceAndAlone) {
  CoreLease lease;
  Counters c;
  constexpr int kThreads = 8, kJobs = 50;
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      for (int j = 0; j < kJobs; ++j) {
        if ((t + j) % 3 == 0) {
          std::shared_lock guard(lease);
          c.shared.fetch_add(1);
          if (c.exclusive.load() != 0) c.overlaps.fetch_add(1);
          std::this_thread::sleep_for(std::chrono::microseconds(20));
          c.shared.fetch_sub(1);
          continue;
        }
        CoreLease::Job job;
        job.context = &c;
        job.run = [](void* p) { exclusiveWork(*static_cast<Counters*>(p)); };
        lease.runExclusive(job);
        EXPECT_TRUE(job.done);
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_EQ(c.overlaps.load(), 0);
  int expected = 0;
  for (int t = 0; t < kThreads; ++t)
    for (int j = 0; j < kJobs; ++j) expected += (t + j) % 3 != 0;
  EXPECT_EQ(c.runs.load(), expected);
}

TEST(CoreLeaseTest, QueuedExclusiveWorkKeepsNewSharedHoldersOut) {
  CoreLease lease;
  std::shared_lock first(lease);  // a reference kernel running
  std::atomic<bool> exclusiveRan{false}, lateSharedEntered{false};
  std::thread exclusive([&] {
    CoreLease::Job job;
    job.context = &exclusiveRan;
    job.run = [](void* p) { static_cast<std::atomic<bool>*>(p)->store(true); };
    lease.runExclusive(job);
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));  // the exclusive job is queued
  std::thread late([&] {
    std::shared_lock guard(lease);
    lateSharedEntered = true;
    EXPECT_TRUE(exclusiveRan.load()) << "a shared holder overtook queued exclusive work";
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(exclusiveRan.load());
  EXPECT_FALSE(lateSharedEntered.load());
  first.unlock();  // the last shared holder leaves: the queued work runs, then the late one enters
  exclusive.join();
  late.join();
  EXPECT_TRUE(exclusiveRan.load());
  EXPECT_TRUE(lateSharedEntered.load());
}

// libgomp throttles every team's spinning once its teams' threads outnumber the cores, so exclusive
// work (oneDNN's OpenMP teams) must start from one thread only, whichever thread asks for it.
TEST(CoreLeaseTest, ExclusiveWorkRunsOnTheLeasesOneThread) {
  CoreLease lease;
  std::mutex mutex;
  std::set<std::thread::id> runners, callers;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&] {
      {
        std::lock_guard guard(mutex);
        callers.insert(std::this_thread::get_id());
      }
      for (int j = 0; j < 20; ++j) {
        const std::thread::id ran = lease.runExclusive([] { return std::this_thread::get_id(); });
        std::lock_guard guard(mutex);
        runners.insert(ran);
      }
    });
  }
  for (auto& t : threads) t.join();
  ASSERT_EQ(runners.size(), 1u);
  EXPECT_EQ(callers.count(*runners.begin()), 0u);
  EXPECT_NE(*runners.begin(), std::this_thread::get_id());
}

// A job nobody waits behind runs on the CPU its caller queued it from, so that the caller is woken
// where the runner runs (core_lease.hpp). The main thread is pinned to one CPU and the caller, which
// starts the runner, pins itself to each of two CPUs in turn: a runner that stayed put would match
// about half the time at most, and one confined to the main thread's CPU or to that of the thread that
// started it would match only there. Skipped with fewer than two CPUs.
TEST(CoreLeaseTest, ALoneJobRunsOnItsCallersCpu) {
  cpu_set_t allowed;
  CPU_ZERO(&allowed);
  ASSERT_EQ(sched_getaffinity(0, sizeof(allowed), &allowed), 0);
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE && cpus.size() < 2; ++cpu)
    if (CPU_ISSET(cpu, &allowed)) cpus.push_back(cpu);
  if (cpus.size() < 2) GTEST_SKIP() << "one CPU";
  auto pin = [](int cpu) {
    cpu_set_t one;
    CPU_ZERO(&one);
    CPU_SET(cpu, &one);
    return sched_setaffinity(0, sizeof(one), &one) == 0;
  };
  ASSERT_TRUE(pin(cpus[0]));  // the main thread: this test runs on it
  CoreLease lease;
  int matches = 0;
  constexpr int kRounds = 20;
  std::thread caller([&] {
    for (int round = 0; round < kRounds; ++round) {
      const int cpu = cpus[(round + 1) % 2];  // the runner starts from a thread on the other CPU
      ASSERT_TRUE(pin(cpu));
      const int ranOn = lease.runExclusive([] { return sched_getcpu(); });
      matches += ranOn == cpu;
    }
  });
  caller.join();
  ASSERT_EQ(sched_setaffinity(0, sizeof(allowed), &allowed), 0);
  EXPECT_GE(matches, kRounds * 3 / 4) << matches << " of " << kRounds << " jobs ran on their caller's CPU";
}

TEST(CoreLeaseTest, ValueReturningWorkPassesItsResultAndItsException) {
  CoreLease lease;
  EXPECT_EQ(lease.runExclusive([] { return 6 * 7; }), 42);
  EXPECT_THROW(lease.runExclusive([]() -> int { throw std::runtime_error("kernel failed"); }), std::runtime_error);
  EXPECT_EQ(lease.runExclusive([] { return 1; }), 1);  // the runner survived the exception
}

// Exclusive work that asks for exclusive work again (a kernel running a nested model, say) already
// holds the cores: it runs there at once instead of waiting for itself.
TEST(CoreLeaseTest, ExclusiveWorkInsideExclusiveWorkRunsInPlace) {
  CoreLease lease;
  const auto [outer, inner] = lease.runExclusive([&] {
    const std::thread::id here = std::this_thread::get_id();
    return std::make_pair(here, lease.runExclusive([] { return std::this_thread::get_id(); }));
  });
  EXPECT_EQ(outer, inner);
}

TEST(CoreLeaseTest, TheCpuDevicesOfAProcessShareOneLease) {
  std::shared_ptr<CoreLease> a = CoreLease::ofProcess(), b = CoreLease::ofProcess();
  EXPECT_EQ(a.get(), b.get());
  const std::thread::id first = a->runExclusive([] { return std::this_thread::get_id(); });
  EXPECT_EQ(b->runExclusive([] { return std::this_thread::get_id(); }), first);
  a.reset();
  b.reset();  // the last owner: its runner thread ends
  std::shared_ptr<CoreLease> c = CoreLease::ofProcess();
  EXPECT_EQ(c->runExclusive([] { return 5; }), 5);
}

}  // namespace
}  // namespace nnrt::cpu
