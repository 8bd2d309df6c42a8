#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The sort's large buffers, and what the system is told about them: mapped without reserving,
/// backed by large pages where the system has them, and given back when no longer needed.
package enum PageMemory {
    /// The size of a large page (a transparent huge page on x86-64 and arm64 Linux).
    static let largePage = 2 << 20

    /// Calls `body` with `count` bytes of zeroed memory that start on a large page, or returns
    /// `nil` when the system has no room for them.
    ///
    /// The memory is mapped without reserving it: a page takes memory only once it is touched,
    /// so a reserve far larger than what is used costs nothing.
    static func withMapped<Result>(count: Int, _ body: (UnsafeMutableRawPointer) -> Result?) -> Result? {
        let size = count + largePage
        let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
        guard let mapped, mapped != MAP_FAILED else { return nil }
        defer { munmap(mapped, size) }
        return body(mapped + (largePage - Int(bitPattern: mapped) % largePage) % largePage)
    }

    /// Asks the system to back the large pages that `memory` covers with one page each instead
    /// of 512 small ones: one page fault where there were 512, when the memory is first touched.
    /// Only a hint, and only for 4 MiB or more; nothing changes where the system has no large
    /// pages or has them turned off.
    ///
    /// Call it before the memory is first written: pages already touched stay as they are.
    package static func preferLargePages(_ memory: UnsafeMutableRawBufferPointer) {
        #if os(Linux)
            guard memory.count >= 2 * largePage, let (start, count) = wholePages(of: memory, outward: true) else {
                return
            }
            _ = madvise(start, count, Int32(MADV_HUGEPAGE))
        #endif
    }

    /// Gives the whole pages of `memory` back to the system: they read as zeros when touched
    /// again, and take no memory until then. Only for a megabyte or more (a few system calls).
    static func giveBack(_ memory: UnsafeMutableRawBufferPointer) {
        guard memory.count >= 1 << 20, let (start, count) = wholePages(of: memory, outward: false) else { return }
        _ = madvise(start, count, Int32(MADV_DONTNEED))
    }

    /// The pages `memory` lies on: those it covers in full (`outward` false), or every page it
    /// touches (`outward` true; a hint may cover a neighbour's bytes on its first and last page).
    private static func wholePages(of memory: UnsafeMutableRawBufferPointer, outward: Bool)
        -> (UnsafeMutableRawPointer, Int)?
    {
        guard let base = memory.baseAddress else { return nil }
        let page = 1 << 12
        let first = Int(bitPattern: base)
        let last = first + memory.count
        let start = outward ? first & -page : (first + page - 1) & -page
        let end = outward ? (last + page - 1) & -page : last & -page
        guard end > start, let pointer = UnsafeMutableRawPointer(bitPattern: start) else { return nil }
        return (pointer, end - start)
    }
}
