// How the hook works. NVTX3 is header-only: every NVTX call goes through a function pointer in a
// process-wide table (nvtxGlobals_v3). The first call runs NVTX's loader (nvtxDetail/nvtxInit.h),
// which looks for a tool in this order: the shared library named by NVTX_INJECTION64_PATH (what
// Nsight Systems sets), then the "static injection" pointer InitializeInjectionNvtx2_fnptr. If
// it finds one it calls it, and the tool fills the table with its own functions; if not, every
// pointer becomes null and an NVTX call costs a load and a branch from then on.
//
// NVTX's headers define InitializeInjectionNvtx2_fnptr as a weak, null symbol; this file defines
// the strong one (hence NVTX_STATIC_INJECTION_IMPL), still null. It stays null unless
// install_nvtx_capture() runs, so linking this file changes nothing until someone asks for a
// trace -- no separate .so, no environment variable. Because the loader runs once, install must
// come before the first NVTX call, and a tool named by NVTX_INJECTION64_PATH always wins.
#define NVTX_STATIC_INJECTION_IMPL

#include "bench/trace/nvtx_capture.h"

#include <pthread.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <map>
#include <mutex>

#include "common/util/clock.h"

#ifdef INFERGATE_HAVE_NVTX
// NVTX's loader reads this pointer; it must be declared before the headers that use it.
using NvtxInjectionInit = int (*)(const void* (*)(uint32_t));
extern NvtxInjectionInit InitializeInjectionNvtx2_fnptr;
#include <nvtx3/nvToolsExt.h>
NvtxInjectionInit InitializeInjectionNvtx2_fnptr = nullptr;
#endif

namespace infergate {
namespace {

constexpr uint32_t kChunkEvents = 4096;         // 256 KiB per chunk
constexpr uint32_t kMaxChunksPerThread = 1024;  // kMaxEventsPerThread: 4M events, 256 MiB
static_assert(sizeof(NvtxEvent) == 64, "one cache line per event");

// A thread appends to its own chunks; readers see a prefix through the release/acquire pairs on
// `size` and `next`, so recording takes no lock.
struct Chunk {
  NvtxEvent events[kChunkEvents];
  std::atomic<uint32_t> size{0};
  std::atomic<Chunk*> next{nullptr};
};

struct ThreadBuffer {
  int64_t tid = 0;
  std::string os_name;  // at registration
  Chunk* head = nullptr;
  Chunk* tail = nullptr;    // owner thread only
  uint32_t num_chunks = 0;  // owner thread only
};

// Process-wide and never destroyed: recording threads may outlive any owner.
struct Registry {
  std::mutex mu;
  std::vector<ThreadBuffer*> threads;
  std::map<int64_t, std::string> thread_names;  // from nvtxNameOsThread
  std::vector<std::string> domains{""};
  std::deque<std::string> strings;  // registered strings; their handles point into these
};

Registry& registry() {
  static auto* r = new Registry;
  return *r;
}

std::atomic<int> g_active{0};
std::atomic<uint64_t> g_dropped{0};
std::atomic<bool> g_installed{false};

bool fail(std::string* why_not, std::string reason) {
  if (why_not != nullptr) *why_not = std::move(reason);
  return false;
}

#ifdef INFERGATE_HAVE_NVTX

thread_local ThreadBuffer* t_buffer = nullptr;

std::string os_thread_name() {
  char name[16] = {};
  pthread_getname_np(pthread_self(), name, sizeof(name));
  return name;
}

ThreadBuffer* register_thread() {
  auto* buffer = new ThreadBuffer;
  buffer->tid = static_cast<int64_t>(syscall(SYS_gettid));
  buffer->os_name = os_thread_name();
  buffer->head = buffer->tail = new Chunk;
  buffer->num_chunks = 1;
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.threads.push_back(buffer);
  return buffer;
}

// The slot for this thread's next event, or null when its buffer is full.
NvtxEvent* next_slot() {
  if (t_buffer == nullptr) t_buffer = register_thread();
  ThreadBuffer& b = *t_buffer;
  if (b.tail->size.load(std::memory_order_relaxed) == kChunkEvents) {
    if (b.num_chunks == kMaxChunksPerThread) {
      g_dropped.fetch_add(1, std::memory_order_relaxed);
      return nullptr;
    }
    auto* chunk = new Chunk;
    b.tail->next.store(chunk, std::memory_order_release);
    b.tail = chunk;
    ++b.num_chunks;
  }
  return &b.tail->events[b.tail->size.load(std::memory_order_relaxed)];
}

// Only the owner writes `size`: a plain release store, not a locked read-modify-write.
void publish() {
  std::atomic<uint32_t>& size = t_buffer->tail->size;
  size.store(size.load(std::memory_order_relaxed) + 1, std::memory_order_release);
}

bool active() { return g_active.load(std::memory_order_relaxed) > 0; }

void copy_ascii(const char* text, char* out) {
  int i = 0;
  if (text != nullptr) {
    for (; i < NvtxEvent::kMaxNameBytes - 1 && text[i] != '\0'; ++i) out[i] = text[i];
  }
  out[i] = '\0';
}

// Wide names are rare (Windows-style callers); keep ASCII, mark the rest.
void copy_wide(const wchar_t* text, char* out) {
  int i = 0;
  if (text != nullptr) {
    for (; i < NvtxEvent::kMaxNameBytes - 1 && text[i] != L'\0'; ++i) {
      out[i] = (text[i] > 0 && text[i] < 128) ? static_cast<char>(text[i]) : '?';
    }
  }
  out[i] = '\0';
}

std::string narrow(const wchar_t* text) {
  char buffer[NvtxEvent::kMaxNameBytes];
  copy_wide(text, buffer);
  return buffer;
}

void copy_message(const nvtxEventAttributes_t* attributes, char* out) {
  if (attributes == nullptr) return copy_ascii(nullptr, out);
  switch (attributes->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
      return copy_ascii(attributes->message.ascii, out);
    case NVTX_MESSAGE_TYPE_UNICODE:
      return copy_wide(attributes->message.unicode, out);
    case NVTX_MESSAGE_TYPE_REGISTERED:  // our handles are the strings themselves
      return copy_ascii(reinterpret_cast<const char*>(attributes->message.registered), out);
    default:
      return copy_ascii(nullptr, out);
  }
}

uint16_t domain_id(nvtxDomainHandle_t domain) {
  return static_cast<uint16_t>(reinterpret_cast<uintptr_t>(domain));
}

nvtxDomainHandle_t domain_handle(size_t id) {
  return reinterpret_cast<nvtxDomainHandle_t>(static_cast<uintptr_t>(id));
}

template <typename Copy, typename Source>
void record(NvtxEvent::Kind kind, uint16_t domain, Copy copy, Source source) {
  if (!active()) return;
  NvtxEvent* e = next_slot();
  if (e == nullptr) return;
  e->time_ns = now_ns();
  e->kind = kind;
  e->domain = domain;
  copy(source, e->name);
  publish();
}

// The tool's side of each hooked NVTX call. Push and pop report nesting level 0: nothing in
// infergate reads it, and tracking it would cost every call.
int range_push_a(const char* message) {
  record(NvtxEvent::Kind::kPush, 0, copy_ascii, message);
  return 0;
}
int range_push_w(const wchar_t* message) {
  record(NvtxEvent::Kind::kPush, 0, copy_wide, message);
  return 0;
}
int range_push_ex(const nvtxEventAttributes_t* attributes) {
  record(NvtxEvent::Kind::kPush, 0, copy_message, attributes);
  return 0;
}
int range_pop() {
  record(NvtxEvent::Kind::kPop, 0, copy_ascii, nullptr);
  return 0;
}
void mark_a(const char* message) { record(NvtxEvent::Kind::kMark, 0, copy_ascii, message); }
void mark_w(const wchar_t* message) { record(NvtxEvent::Kind::kMark, 0, copy_wide, message); }
void mark_ex(const nvtxEventAttributes_t* attributes) {
  record(NvtxEvent::Kind::kMark, 0, copy_message, attributes);
}
int domain_range_push_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  record(NvtxEvent::Kind::kPush, domain_id(domain), copy_message, attributes);
  return 0;
}
int domain_range_pop(nvtxDomainHandle_t domain) {
  record(NvtxEvent::Kind::kPop, domain_id(domain), copy_ascii, nullptr);
  return 0;
}
void domain_mark_ex(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes) {
  record(NvtxEvent::Kind::kMark, domain_id(domain), copy_message, attributes);
}

void name_os_thread(uint32_t tid, std::string name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.thread_names[tid] = std::move(name);
}
void name_os_thread_a(uint32_t tid, const char* name) { name_os_thread(tid, name ? name : ""); }
void name_os_thread_w(uint32_t tid, const wchar_t* name) { name_os_thread(tid, narrow(name)); }

// Domain handles are small integers (1, 2, ...); the default domain is the null handle.
nvtxDomainHandle_t domain_create(std::string name) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  for (size_t i = 1; i < r.domains.size(); ++i) {
    if (r.domains[i] == name) return domain_handle(i);
  }
  if (r.domains.size() > UINT16_MAX) return nullptr;  // fall back to the default domain
  r.domains.push_back(std::move(name));
  return domain_handle(r.domains.size() - 1);
}
nvtxDomainHandle_t domain_create_a(const char* name) { return domain_create(name ? name : ""); }
nvtxDomainHandle_t domain_create_w(const wchar_t* name) { return domain_create(narrow(name)); }
void domain_destroy(nvtxDomainHandle_t) {}

nvtxStringHandle_t register_string(std::string text) {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  r.strings.push_back(std::move(text));
  return reinterpret_cast<nvtxStringHandle_t>(const_cast<char*>(r.strings.back().c_str()));
}
nvtxStringHandle_t register_string_a(nvtxDomainHandle_t, const char* text) {
  return register_string(text ? text : "");
}
nvtxStringHandle_t register_string_w(nvtxDomainHandle_t, const wchar_t* text) {
  return register_string(narrow(text));
}

template <typename F>
NvtxFunctionPointer as_nvtx(F* function) {
  return reinterpret_cast<NvtxFunctionPointer>(function);
}

void hook(NvtxFunctionTable table, unsigned int size, unsigned int id, NvtxFunctionPointer fn) {
  if (id < size && table[id] != nullptr) *table[id] = fn;
}

// Called by NVTX's loader, once, from inside the first NVTX call (or install's nvtxInitialize).
int initialize_injection(const void* (*get_export_table)(uint32_t)) {
  const auto* callbacks =
      static_cast<const NvtxExportTableCallbacks*>(get_export_table(NVTX_ETID_CALLBACKS));
  if (callbacks == nullptr || callbacks->struct_size < sizeof(NvtxExportTableCallbacks)) return 0;
  NvtxFunctionTable core = nullptr;
  NvtxFunctionTable core2 = nullptr;
  unsigned int core_size = 0;
  unsigned int core2_size = 0;
  if (!callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE, &core, &core_size) ||
      !callbacks->GetModuleFunctionTable(NVTX_CB_MODULE_CORE2, &core2, &core2_size)) {
    return 0;
  }
  hook(core, core_size, NVTX_CBID_CORE_MarkEx, as_nvtx(mark_ex));
  hook(core, core_size, NVTX_CBID_CORE_MarkA, as_nvtx(mark_a));
  hook(core, core_size, NVTX_CBID_CORE_MarkW, as_nvtx(mark_w));
  hook(core, core_size, NVTX_CBID_CORE_RangePushEx, as_nvtx(range_push_ex));
  hook(core, core_size, NVTX_CBID_CORE_RangePushA, as_nvtx(range_push_a));
  hook(core, core_size, NVTX_CBID_CORE_RangePushW, as_nvtx(range_push_w));
  hook(core, core_size, NVTX_CBID_CORE_RangePop, as_nvtx(range_pop));
  hook(core, core_size, NVTX_CBID_CORE_NameOsThreadA, as_nvtx(name_os_thread_a));
  hook(core, core_size, NVTX_CBID_CORE_NameOsThreadW, as_nvtx(name_os_thread_w));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainMarkEx, as_nvtx(domain_mark_ex));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainRangePushEx, as_nvtx(domain_range_push_ex));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainRangePop, as_nvtx(domain_range_pop));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringA, as_nvtx(register_string_a));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainRegisterStringW, as_nvtx(register_string_w));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainCreateA, as_nvtx(domain_create_a));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainCreateW, as_nvtx(domain_create_w));
  hook(core2, core2_size, NVTX_CBID_CORE2_DomainDestroy, as_nvtx(domain_destroy));
  const auto* version =
      static_cast<const NvtxExportTableVersionInfo*>(get_export_table(NVTX_ETID_VERSIONINFO));
  if (version != nullptr && version->SetInjectionNvtxVersion != nullptr) {
    version->SetInjectionNvtxVersion(NVTX_VERSION);
  }
  g_installed.store(true);
  return 1;
}

#endif  // INFERGATE_HAVE_NVTX

std::string current_thread_name(int64_t tid, const std::string& fallback) {
  std::ifstream comm("/proc/self/task/" + std::to_string(tid) + "/comm");
  std::string name;
  if (comm && std::getline(comm, name) && !name.empty()) return name;
  return fallback;  // the thread has exited
}

std::vector<NvtxEvent> read_events(const ThreadBuffer& buffer) {
  std::vector<NvtxEvent> events;
  for (Chunk* c = buffer.head; c != nullptr; c = c->next.load(std::memory_order_acquire)) {
    uint32_t size = c->size.load(std::memory_order_acquire);
    events.insert(events.end(), c->events, c->events + size);
  }
  return events;
}

}  // namespace

bool install_nvtx_capture(std::string* why_not) {
#ifdef INFERGATE_HAVE_NVTX
  std::lock_guard<std::mutex> lock(registry().mu);
  if (g_installed.load()) return true;
  if (const char* tool = std::getenv("NVTX_INJECTION64_PATH"); tool != nullptr) {
    return fail(why_not, std::string("another NVTX tool is attached (NVTX_INJECTION64_PATH=") +
                             tool + ", e.g. Nsight Systems); the ranges go to it instead");
  }
  if (NVTX_VERSIONED_IDENTIFIER(nvtxGlobals).initState != NVTX_INIT_STATE_FRESH) {
    return fail(why_not,
                "NVTX is already initialized: trace capture must be installed before the first "
                "NVTX call in the process");
  }
  InitializeInjectionNvtx2_fnptr = initialize_injection;
  nvtxInitialize(nullptr);  // run the loader now, on this thread
  if (!g_installed.load()) {
    return fail(why_not, "NVTX initialized without infergate's hook (a concurrent first call?)");
  }
  return true;
#else
  return fail(why_not, "built without the NVTX3 headers: there are no ranges to capture");
#endif
}

bool nvtx_capture_installed() { return g_installed.load(); }

void nvtx_capture_begin() { g_active.fetch_add(1); }
void nvtx_capture_end() { g_active.fetch_sub(1); }

std::vector<NvtxThreadEvents> nvtx_capture_snapshot() {
  std::vector<ThreadBuffer*> threads;
  std::map<int64_t, std::string> names;
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    threads = r.threads;
    names = r.thread_names;
  }
  std::vector<NvtxThreadEvents> out;
  for (const ThreadBuffer* buffer : threads) {
    NvtxThreadEvents t;
    t.tid = buffer->tid;
    auto named = names.find(buffer->tid);
    t.thread_name =
        named != names.end() ? named->second : current_thread_name(buffer->tid, buffer->os_name);
    t.events = read_events(*buffer);
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<std::string> nvtx_capture_domains() {
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);
  return r.domains;
}

uint64_t nvtx_capture_dropped() { return g_dropped.load(); }

}  // namespace infergate
