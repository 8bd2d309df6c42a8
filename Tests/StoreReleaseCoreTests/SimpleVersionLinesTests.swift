import Testing

@testable import StoreReleaseCore

/// The fast path's one reading of a large text: room for every line a text of its size can
/// have, with each part's slots starting on a large page of their own.
@Suite struct SimpleVersionLinesTests {
    // 9 MiB of two-byte lines, the most lines 9 MiB can hold. Past 8 MiB each part's first
    // slot is a large page's worth of slots into the buffer, and the reserve must still hold
    // every line: one too small sends the whole text down the general path, as slow as parsing
    // every line as a `Version`, with nothing in the output to show it.
    @Test func theMostLinesALargeTextCanHoldStayOnTheFastPath() {
        let lines = 9 << 19
        let text = (0..<lines).flatMap { [UInt8(ascii: "0") + UInt8($0 % 10), UInt8(ascii: "\n")] }
        let read = text.withUnsafeBufferPointer { text in
            SimpleVersionLines.withSlots(for: text.count) { packed, _, lengths -> (lines: Int, firstSlots: [Int])? in
                SimpleVersionLines(text, scheme: .appStore, into: packed, lengths: lengths).map {
                    ($0.lines, $0.firstSlots)
                }
            }
        }
        #expect(read?.lines == lines)
        let slotsAPage = PageMemory.largePage / 16
        let starts = read?.firstSlots.dropLast() ?? []
        #expect(!starts.isEmpty && starts.allSatisfy { $0.isMultiple(of: slotsAPage) }, "\(starts)")
    }
}
