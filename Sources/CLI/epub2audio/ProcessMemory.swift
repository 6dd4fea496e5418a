import LiveConversion

#if canImport(Glibc)
    import Glibc
#endif

/// How the process asks its allocator to keep its memory: few arenas, and the memory indexing freed
/// handed back before converting. The CLI links mimalloc (Package.swift), which serves every
/// `malloc` then, and the glibc calls below find an allocator nobody uses (they stay for a build
/// without it). Under mimalloc, `mi_collect` only reaches the calling thread's heap; what the
/// parsing threads freed goes back because a conversion sets no delay first
/// (`handBackFreedPagesAtOnce`), which is what measurably lowers the coordinator's RSS.
///
/// The coordinator's peak RSS was mostly memory glibc kept, not memory in use (issue 13): converting
/// sections 1–30 of the 10,000-section book used at most 43 MB of heap but peaked at 100.5 MiB. Each
/// thread that finds the arenas busy gets one of its own (up to 8 per core): the documents parsed on
/// every core while indexing, then the conversion thread, the job slots and the manifest writer each
/// grew one, and memory freed in one arena never serves a thread that allocates in another.
///
/// `mallopt` and `malloc_trim` are declared in `<malloc.h>`, which Swift's Glibc module does not
/// include: they are looked up once by name. Elsewhere (another C library) both do nothing.
enum ProcessMemory {
    /// At most this many arenas: one per core (two at least), as many as the threads that parse
    /// and convert at once; more only spreads the same allocations over more heaps, fewer makes the
    /// threads wait for each other's (one arena for two parsing threads: `--list` of the Mahabharata
    /// took 60% more CPU). With two on two cores it is no slower: 2.03–2.30 s wall against
    /// 2.20–2.47 s before.
    static var arenaLimit: Int32 {
        #if canImport(Glibc)
            return Int32(max(2, min(64, sysconf(Int32(_SC_NPROCESSORS_ONLN)))))
        #else
            return 2
        #endif
    }
    /// `M_ARENA_MAX` of `<malloc.h>`.
    private static let mallocArenaMax: Int32 = -8

    /// `mi_option_decommit_delay` of `<mimalloc.h>` (2.0; its environment name is `MIMALLOC_RESET_DELAY`).
    private static let mimallocDecommitDelay: Int32 = 15

    /// Under mimalloc, hands pages back to the system as soon as they are freed rather than 25 ms
    /// later; for a process that goes on after reading a book (a conversion), called before reading
    /// it. The threads that parse the book go idle once it is indexed, and what they freed stayed
    /// with them: converting sections of the 10,000-section book, the coordinator kept 87–96 MB for
    /// seconds, 65–69 MB with no delay. A listing, which ends once the book is read, keeps the delay:
    /// it is about 8% faster with it.
    static func handBackFreedPagesAtOnce() {
        typealias OptionSet = @convention(c) (Int32, Int) -> Void
        guard let set: OptionSet = CLibrary.function(named: "mi_option_set") else { return }
        set(mimallocDecommitDelay, 0)
    }

    /// Caps the number of arenas; called first thing, before any thread starts.
    static func limitArenas() {
        typealias Mallopt = @convention(c) (Int32, Int32) -> Int32
        guard let mallopt: Mallopt = CLibrary.function(named: "mallopt") else { return }
        _ = mallopt(mallocArenaMax, arenaLimit)
    }

    /// Returns to the system the free memory of every arena (what indexing built and dropped: parsed
    /// documents, drafts), so the long conversion that follows does not carry it as RSS.
    static func releaseFreed() {
        typealias Collect = @convention(c) (Bool) -> Void
        if let collect: Collect = CLibrary.function(named: "mi_collect") { return collect(true) }
        typealias MallocTrim = @convention(c) (Int) -> Int32
        guard let trim: MallocTrim = CLibrary.function(named: "malloc_trim") else { return }
        _ = trim(0)
    }
}
