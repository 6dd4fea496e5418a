import Contracts
import Foundation
import Testing

@Suite struct SHA256Tests {
    /// FIPS 180-4 / NIST example vectors.
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (
            "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
            "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"
        ),
    ])
    func knownVectors(input: String, digest: String) {
        #expect(SHA256.hex(input) == digest)
    }

    @Test func oneMillionA() {
        #expect(
            SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func streamingInOddPiecesEqualsOneShot() {
        let bytes = (0..<5000).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) }
        var hasher = SHA256()
        var start = 0
        for size in [1, 63, 64, 65, 0, 127, 1000, 3] + Array(repeating: 500, count: 10) where start < bytes.count {
            let end = min(start + size, bytes.count)
            hasher.update(bytes[start..<end])
            start = end
        }
        hasher.update(bytes[start...])
        #expect(hasher.finalizeHex() == SHA256.hex(bytes))
    }
}
