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
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        var lineStart = 0
        var lineNumber = 1
        while true {
            let count = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if count > 0 {
                let chunkStart = bytes.count
                bytes.append(contentsOf: chunk[0..<count])
                // memchr jumps from line break to line break; only the gaps are measured.
                let tooLong = chunk.withUnsafeBytes { buffer -> Bool in
                    guard let base = buffer.baseAddress else { return false }
                    var offset = 0
                    while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
                        let position = base.distance(to: UnsafeRawPointer(found))
                        if chunkStart + position - lineStart > maximumLineLength { return true }
                        lineStart = chunkStart + position + 1
                        lineNumber += 1
                        offset = position + 1
                    }
                    return chunkStart + count - lineStart > maximumLineLength
                }
                if tooLong { return .failure(LineTooLong(line: lineNumber)) }
            } else if count == 0 {
                if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
                return .success(bytes)
            } else if errno != EINTR {
                throw .failure("cannot read input: \(String(cString: strerror(errno)))")
            }
        }
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
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                guard bytes.count + count <= limit else { return nil }
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return bytes
            } else if errno != EINTR {
                throw .failure("cannot read input: \(String(cString: strerror(errno)))")
            }
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

/// The C library's `write`, under a name that does not clash with ``StandardStreams/write(_:to:)``.
@inline(__always)
private func systemWrite(_ descriptor: Int32, _ address: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, address, count)
}
