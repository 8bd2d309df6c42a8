import Foundation
import StoreReleaseCore

/// gzip (RFC 1952) files inflated (RFC 1951), in Swift: what App Store Connect's report segments are.
///
/// Why a small inflater here rather than zlib: Foundation on Linux cannot inflate (its
/// `NSData.decompressed(using:)` is Apple-only), and a C shim or a system library target over zlib
/// would make every machine that builds the package need zlib's headers (`zlib1g-dev` on Debian)
/// and a module map for it, on the app's platforms too, for a few reports a day. Inflating is
/// about 200 lines with no state worth sharing, it stops at `maximumSize` bytes of output (a
/// segment that inflates to gigabytes is refused), ``inflate(_:maximumSize:into:)`` hands the
/// output on a piece at a time holding only the last 32 KiB (a segment is read, not held), and
/// each member's CRC-32 and length are checked. Only decompression; nothing here compresses.
package enum Gzip {
    /// Why bytes could not be inflated.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The bytes do not start with gzip's magic `1f 8b 08`.
        case notGzip
        /// The data stops before the end of a member.
        case truncated
        /// The compressed stream breaks RFC 1951 (the text says where).
        case invalid(String)
        /// A member's CRC-32 or length does not match what was inflated.
        case checksum
        /// The output would pass `limit` bytes.
        case tooLarge(limit: Int)

        /// What is wrong, for an error message.
        package var description: String {
            switch self {
            case .notGzip: "not gzip data (no 1f 8b 08 at the start)"
            case .truncated: "the gzip data is cut off"
            case .invalid(let what): "the gzip data is corrupt (\(what))"
            case .checksum: "the gzip data's CRC-32 or length does not match its content"
            case .tooLarge(let limit): "the gzip data inflates to more than \(limit) bytes"
            }
        }
    }

    /// Whether `data` starts with gzip's magic bytes.
    package static func isGzip(_ data: Data) -> Bool {
        data.count >= 3 && data[data.startIndex] == 0x1F && data[data.startIndex + 1] == 0x8B
            && data[data.startIndex + 2] == 0x08
    }

    /// The content of every member of a gzip file, one after the other.
    ///
    /// - Throws: ``Failure``.
    package static func decompress(_ data: Data, maximumSize: Int) throws(Failure) -> Data {
        var output = Data()
        try inflate(data, maximumSize: maximumSize) { output.append(contentsOf: $0) }
        return output
    }

    /// Inflates every member of a gzip file a piece at a time, holding only what DEFLATE refers back to.
    ///
    /// `piece` gets the content in order, in pieces of about 256 KiB; besides the compressed
    /// bytes, only the last 32 KiB of output are held, whatever the content's size. A member's
    /// CRC-32 and length are checked once its last piece was handed on, so a caller keeps what it
    /// made of the pieces only when this returns.
    ///
    /// - Throws: ``Failure``.
    package static func inflate(_ data: Data, maximumSize: Int, into piece: (ArraySlice<UInt8>) -> Void)
        throws(Failure)
    {
        var reader = BitReader(Array(data))
        var window = Window(maximumSize: maximumSize)
        repeat {
            try reader.header()
            try inflate(&reader, into: &window, piece)
            reader.alignToByte()
            let crc = try reader.littleEndian32()
            let size = try reader.littleEndian32()
            let member = window.endMember(piece)
            guard crc == member.crc, size == UInt32(truncatingIfNeeded: member.size) else { throw .checksum }
        } while reader.hasMoreBytes
    }

    /// The output while it is inflated: the last 32 KiB, which DEFLATE's distances reach back into,
    /// and what is not handed on yet.
    private struct Window {
        /// How far back a distance reaches.
        static let history = 32 << 10
        /// How much is held before it is handed on.
        static let pieceSize = 256 << 10

        let maximumSize: Int
        var bytes: [UInt8] = []
        /// The bytes of `bytes` handed on already.
        var handed = 0
        /// The bytes dropped from the front: handed on, and further back than a distance reaches.
        var dropped = 0
        /// The current member's CRC-32 (not yet inverted) and length over what was handed on.
        var crc = CRC32.start
        var memberSize = 0

        init(maximumSize: Int) { self.maximumSize = maximumSize }

        /// Every byte inflated so far.
        var produced: Int { dropped + bytes.count }

        /// Hands on what is not handed on yet and drops what no distance reaches.
        mutating func handOn(_ piece: (ArraySlice<UInt8>) -> Void) {
            guard handed < bytes.count else { return }
            let pending = bytes[handed...]
            crc = CRC32.update(crc, pending)
            memberSize += pending.count
            piece(pending)
            handed = bytes.count
            if bytes.count > Self.history {
                let drop = bytes.count - Self.history
                bytes.removeFirst(drop)
                (dropped, handed) = (dropped + drop, handed - drop)
            }
        }

        /// Hands on once a piece's worth is held.
        mutating func handOnWhenFull(_ piece: (ArraySlice<UInt8>) -> Void) {
            if bytes.count - handed >= Self.pieceSize { handOn(piece) }
        }

        /// Hands on the rest of a member; its CRC-32 and length, and a fresh start for the next one.
        mutating func endMember(_ piece: (ArraySlice<UInt8>) -> Void) -> (crc: UInt32, size: Int) {
            handOn(piece)
            defer { (crc, memberSize) = (CRC32.start, 0) }
            return (CRC32.finish(crc), memberSize)
        }
    }

    // MARK: - RFC 1951

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    private static let distanceBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    private static let distanceExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]
    /// The order the code-length code's lengths come in.
    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    private static let fixed: (literals: Huffman, distances: Huffman)? = {
        let lengths =
            Array(repeating: 8, count: 144) + Array(repeating: 9, count: 112) + Array(repeating: 7, count: 24)
            + Array(repeating: 8, count: 8)
        guard let literals = try? Huffman(lengths: lengths),
            let distances = try? Huffman(lengths: Array(repeating: 5, count: 30))
        else { return nil }
        return (literals, distances)
    }()

    /// Inflates one DEFLATE stream onto `output`.
    private static func inflate(
        _ reader: inout BitReader, into output: inout Window, _ piece: (ArraySlice<UInt8>) -> Void
    ) throws(Failure) {
        var last = false
        while !last {
            last = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let length = try reader.bits(16)
                guard try reader.bits(16) == length ^ 0xFFFF else { throw .invalid("a stored block's length check") }
                guard output.produced + length <= output.maximumSize else {
                    throw .tooLarge(limit: output.maximumSize)
                }
                for _ in 0..<length { output.bytes.append(UInt8(try reader.bits(8))) }
                output.handOnWhenFull(piece)
            case 1:
                guard let fixed else { throw .invalid("the fixed codes") }
                try codes(&reader, fixed.literals, fixed.distances, into: &output, piece)
            case 2:
                let (literals, distances) = try dynamicCodes(&reader)
                try codes(&reader, literals, distances, into: &output, piece)
            default:
                throw .invalid("block type 3")
            }
        }
    }

    /// A dynamic block's two codes.
    private static func dynamicCodes(_ reader: inout BitReader) throws(Failure) -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw .invalid("too many codes") }
        var codeLengths = Array(repeating: 0, count: 19)
        for index in 0..<codeLengthCount { codeLengths[codeLengthOrder[index]] = try reader.bits(3) }
        let codeLengthCode = try Huffman(lengths: codeLengths)
        var lengths: [Int] = []
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengthCode.decode(&reader)
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw .invalid("a repeat with no length before it") }
                lengths += Array(repeating: previous, count: try reader.bits(2) + 3)
            case 17:
                lengths += Array(repeating: 0, count: try reader.bits(3) + 3)
            default:
                lengths += Array(repeating: 0, count: try reader.bits(7) + 11)
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw .invalid("code lengths past the count") }
        guard lengths[256] != 0 else { throw .invalid("no end-of-block code") }
        return (
            try Huffman(lengths: Array(lengths[..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...]))
        )
    }

    /// Decodes a block's symbols until its end code.
    private static func codes(
        _ reader: inout BitReader, _ literals: Huffman, _ distances: Huffman, into output: inout Window,
        _ piece: (ArraySlice<UInt8>) -> Void
    ) throws(Failure) {
        while true {
            output.handOnWhenFull(piece)
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                guard output.produced < output.maximumSize else { throw .tooLarge(limit: output.maximumSize) }
                output.bytes.append(UInt8(symbol))
                continue
            }
            if symbol == 256 { return }
            let index = symbol - 257
            guard index < lengthBase.count else { throw .invalid("length code \(symbol)") }
            let length = lengthBase[index] + (try reader.bits(lengthExtra[index]))
            let code = try distances.decode(&reader)
            guard code < distanceBase.count else { throw .invalid("distance code \(code)") }
            let distance = distanceBase[code] + (try reader.bits(distanceExtra[code]))
            guard distance <= output.bytes.count else { throw .invalid("a distance before the start") }
            guard output.produced + length <= output.maximumSize else { throw .tooLarge(limit: output.maximumSize) }
            let from = output.bytes.count - distance
            for offset in 0..<length { output.bytes.append(output.bytes[from + offset]) }
        }
    }

    /// A canonical Huffman code, decoded a bit at a time (as zlib's `puff` does).
    private struct Huffman {
        var counts = Array(repeating: 0, count: 16)
        var symbols: [Int]

        init(lengths: [Int]) throws(Failure) {
            for length in lengths { counts[length] += 1 }
            var left = 1
            for length in 1...15 {
                left = left << 1 - counts[length]
                guard left >= 0 else { throw .invalid("an over-subscribed code") }
            }
            var offsets = Array(repeating: 0, count: 16)
            for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
            symbols = Array(repeating: 0, count: lengths.count)
            for (symbol, length) in lengths.enumerated() where length != 0 {
                symbols[offsets[length]] = symbol
                offsets[length] += 1
            }
        }

        func decode(_ reader: inout BitReader) throws(Failure) -> Int {
            var code = 0
            var first = 0
            var index = 0
            for length in 1...15 {
                code |= try reader.bits(1)
                let count = counts[length]
                if code - first < count { return symbols[index + code - first] }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            throw .invalid("a code that is not in the table")
        }
    }

    /// Reads bits least significant first, as DEFLATE packs them.
    private struct BitReader {
        let bytes: [UInt8]
        var position = 0
        var buffer: UInt64 = 0
        var count = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var hasMoreBytes: Bool { position < bytes.count }

        mutating func bits(_ wanted: Int) throws(Failure) -> Int {
            while count < wanted {
                guard position < bytes.count else { throw .truncated }
                buffer |= UInt64(bytes[position]) << UInt64(count)
                position += 1
                count += 8
            }
            let value = Int(buffer & ((1 << UInt64(wanted)) - 1))
            buffer >>= UInt64(wanted)
            count -= wanted
            return value
        }

        /// Drops the bits left of the current byte (whole buffered bytes are read again from `bytes`).
        mutating func alignToByte() {
            position -= count / 8
            (buffer, count) = (0, 0)
        }

        mutating func byte() throws(Failure) -> UInt8 {
            guard position < bytes.count else { throw .truncated }
            position += 1
            return bytes[position - 1]
        }

        mutating func littleEndian32() throws(Failure) -> UInt32 {
            var value: UInt32 = 0
            for shift in [0, 8, 16, 24] { value |= UInt32(try byte()) << UInt32(shift) }
            return value
        }

        /// A member's header, skipped after checking the magic and the method.
        mutating func header() throws(Failure) {
            guard try byte() == 0x1F, try byte() == 0x8B, try byte() == 0x08 else { throw .notGzip }
            let flags = try byte()
            for _ in 0..<6 { _ = try byte() }  // mtime, extra flags, OS
            if flags & 0x04 != 0 {
                let length = Int(try byte()) | Int(try byte()) << 8
                for _ in 0..<length { _ = try byte() }
            }
            for flag: UInt8 in [0x08, 0x10] where flags & flag != 0 {
                while try byte() != 0 {}
            }
            if flags & 0x02 != 0 { _ = (try byte(), try byte()) }
        }
    }
}

/// The CRC-32 of gzip (and zip, PNG): polynomial 0xEDB88320, reflected.
enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// The state before any byte.
    static let start: UInt32 = 0xFFFF_FFFF

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        finish(update(start, bytes))
    }

    /// The state after `bytes` more.
    static func update(_ state: UInt32, _ bytes: ArraySlice<UInt8>) -> UInt32 {
        var crc = state
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { bytes in
                for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
            }
        }
        return crc
    }

    /// The checksum of a state.
    static func finish(_ state: UInt32) -> UInt32 { state ^ 0xFFFF_FFFF }
}
