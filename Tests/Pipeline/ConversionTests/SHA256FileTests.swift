import Contracts
import Foundation
import Testing

@testable import Conversion

/// `SHA256.hex(fileAtPath:)`: a book file hashed in blocks, and a readable error for one that is not there.
struct SHA256FileTests {
    @Test func fileLargerThanOneBlock() throws {
        let sandbox = try Sandbox()
        let bytes = (0..<(1 << 20) + 12345).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = sandbox.root + "/big.bin"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        #expect(try SHA256.hex(fileAtPath: path) == SHA256.hex(bytes))
    }

    @Test func missingFileThrows() {
        #expect(throws: ConversionError.self) { try SHA256.hex(fileAtPath: "/nonexistent/book.epub") }
    }
}
