import StoreReleaseCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading standard input and writing standard output and error, in whole buffers.
enum StandardStreams {
    /// A line longer than the limit: its number, from 1.
    struct LineTooLong: Error {
        let line: Int
    }

    /// Reads a file descriptor to its end, or until it has given more than `limit` bytes.
    ///
    /// - Returns: The bytes, or `nil` when there are more than `limit` (reading stops there).
    /// - Throws: ``CLIError/failure(_:)`` when reading fails.
    static func readAll(from descriptor: Int32, limit: Int) throws(CLIError) -> [UInt8]? {
        let (bytes, complete) = try read(from: descriptor, sizeLimit: limit + 1) { $0.count <= limit }
        return complete ? bytes : nil
    }

    /// Reads a file descriptor to its end into one buffer that starts with `initial`, asking
    /// `proceed` after each read whether to go on.
    ///
    /// A regular file's buffer is its size (from `fstat`) and a byte, so it is read in place
    /// without a copy; a stream's starts at 1 MiB and doubles, up to `sizeLimit` bytes. A read
    /// asks for at most `readSize` bytes.
    ///
    /// - Returns: The bytes read, and whether reading reached the end (`false` when `proceed`
    ///   stopped it).
    /// - Throws: ``CLIError/failure(_:)`` when reading fails.
    static func read(
        from descriptor: Int32, initial: [UInt8] = [], sizeLimit: Int = .max, readSize: Int = .max,
        proceed: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(CLIError) -> (bytes: [UInt8], complete: Bool) {
        var status = stat()
        let isFile = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        let fileSize = isFile ? max(0, Int(status.st_size) - max(0, Int(lseek(descriptor, 0, SEEK_CUR)))) : 0
        var capacity = min(max(isFile ? initial.count + fileSize + 1 : 1 << 20, initial.count + 1), sizeLimit)
        var bytes = initial
        var state: (complete: Bool, stopped: Bool, error: Int32?) = (false, false, nil)
        while true {
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                PageMemory.preferLargePages(UnsafeMutableRawBufferPointer(buffer))
                bytes.withUnsafeBufferPointer { old in
                    if let from = old.baseAddress { base.initialize(from: from, count: old.count) }
                    initialized = old.count
                }
                while initialized < buffer.count {
                    let count = readAtOnce(
                        descriptor, base + initialized, min(buffer.count - initialized, readSize), isFile: isFile)
                    if count > 0 {
                        initialized += count
                        guard proceed(UnsafeBufferPointer(rebasing: buffer[..<initialized])) else {
                            state.stopped = true
                            return
                        }
                    } else if count == 0 {
                        state.complete = true
                        return
                    } else if errno != EINTR {
                        state.error = errno
                        return
                    }
                }
            }
            if let error = state.error {
                throw .failure("cannot read input: \(String(cString: strerror(error)))")
            }
            if state.complete || state.stopped || capacity >= sizeLimit { return (bytes, state.complete) }
            capacity = min(capacity * 2, sizeLimit)
        }
    }

    /// Writes all of `bytes` to a file descriptor, retrying short writes.
    ///
    /// - Returns: `false` when the descriptor is closed or fails (a reader that went away).
    @discardableResult
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        guard var address = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let written = systemWrite(descriptor, address, remaining)
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            address += written
            remaining -= written
        }
        return true
    }

    /// Writes text to standard output.
    static func print(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(UnsafeRawBufferPointer($0), to: 1) }
    }

    /// Writes text to standard error.
    static func printError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(UnsafeRawBufferPointer($0), to: 2) }
    }
}

/// Reads up to `count` bytes from the descriptor's offset, as `read` does; from a regular
/// file, 4 MiB or more are read as two halves at once, a core each, and the offset is moved past
/// them. The copy out of the page cache is then split between the cores, and the second core is
/// awake when the sort's parallel parsing starts right after.
///
/// A first half that comes up short (a file that shrank) is all that is returned, and a second
/// half that fails is left to the next call; when the first fails, one `read` tries again and
/// sets `errno` on this thread, as the caller expects.
private func readAtOnce(_ descriptor: Int32, _ address: UnsafeMutablePointer<UInt8>, _ count: Int, isFile: Bool)
    -> Int
{
    let offset = isFile && count >= 4 << 20 ? lseek(descriptor, 0, SEEK_CUR) : -1
    guard offset >= 0 else { return systemRead(descriptor, address, count) }
    let half = count / 2
    let read = ParallelParts.map(2) { part in
        part == 0
            ? pread(descriptor, address, half, offset)
            : pread(descriptor, address + half, count - half, offset + off_t(half))
    }
    let total = read[0] == half && read[1] >= 0 ? half + read[1] : read[0]
    guard read[0] >= 0, lseek(descriptor, offset + off_t(total), SEEK_SET) >= 0 else {
        return systemRead(descriptor, address, count)
    }
    return total
}

/// The C library's `read`, under a name that does not clash with `StandardStreams.read(from:)`.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ address: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, address, count)
}

/// The C library's `write`, under a name that does not clash with ``StandardStreams/write(_:to:)``.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ address: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, address, count)
}
