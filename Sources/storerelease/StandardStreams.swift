#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading standard input and writing standard output and error, in whole buffers.
enum StandardStreams {
    /// Reads standard input to its end as lines, stopping at the first line longer than
    /// `maximumLineLength` bytes (a stream without line breaks, such as `/dev/zero`, is caught
    /// after that many bytes); a UTF-8 byte-order mark at the very start is dropped.
    ///
    /// - Returns: The bytes, or the number of the first line that is too long.
    /// - Throws: ``CLIError/failure(_:)`` when reading fails.
    static func readLines(maximumLineLength: Int) throws(CLIError) -> Result<[UInt8], LineTooLong> {
        // Where the line being read starts. Any line that ends in a window of
        // `maximumLineLength + 1` bytes from there is short enough, so the check looks for the
        // last "\n" of each window, backwards from its end: a few bytes a window, not every byte.
        var lineStart = 0
        var tooLong = false
        var (bytes, _) = try read(from: 0) { bytes in
            while true {
                let windowEnd = lineStart + maximumLineLength + 1
                var index = min(windowEnd, bytes.count)
                repeat { index -= 1 } while index >= lineStart && bytes[index] != UInt8(ascii: "\n")
                if index >= lineStart {
                    lineStart = index + 1
                } else {
                    tooLong = windowEnd <= bytes.count
                    return !tooLong
                }
            }
        }
        if tooLong { return .failure(LineTooLong(line: bytes[..<lineStart].count { $0 == UInt8(ascii: "\n") } + 1)) }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        return .success(bytes)
    }

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

    /// Reads a file descriptor to its end into one buffer, asking `proceed` after each read
    /// whether to go on.
    ///
    /// A regular file's buffer is its size (from `fstat`) and a byte, so it is read in place
    /// without a copy; a stream's starts at 1 MiB and doubles, up to `sizeLimit` bytes.
    ///
    /// - Returns: The bytes read, and whether reading reached the end (`false` when `proceed`
    ///   stopped it).
    /// - Throws: ``CLIError/failure(_:)`` when reading fails.
    private static func read(
        from descriptor: Int32, sizeLimit: Int = .max, proceed: (UnsafeBufferPointer<UInt8>) -> Bool
    ) throws(CLIError) -> (bytes: [UInt8], complete: Bool) {
        var status = stat()
        let isFile = fstat(descriptor, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
        var capacity = min(isFile ? Int(status.st_size) + 1 : 1 << 20, sizeLimit)
        var bytes: [UInt8] = []
        var state: (complete: Bool, stopped: Bool, error: Int32?) = (false, false, nil)
        while true {
            bytes = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }
                bytes.withUnsafeBufferPointer { old in
                    if let from = old.baseAddress { base.initialize(from: from, count: old.count) }
                    initialized = old.count
                }
                while initialized < buffer.count {
                    let count = systemRead(descriptor, base + initialized, buffer.count - initialized)
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
