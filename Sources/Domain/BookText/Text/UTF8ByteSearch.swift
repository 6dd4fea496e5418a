import Foundation

extension String.UTF8View {
    /// Whether these bytes contain `needle`'s bytes: a plain byte search (`memmem`).
    ///
    /// Foundation's `String.contains(_:)` compares grapheme clusters with canonical equivalence and
    /// is slow on long text. For the ASCII phrases searched in folded or lower-cased text the two
    /// agree (an ASCII letter of folded text is never followed by a combining mark: folding removed
    /// them), so this is used there.
    func containsBytes(_ needle: String) -> Bool {
        withBytes { h in
            var needle = needle
            return needle.withUTF8 { n in
                guard n.count > 0 else { return true }
                guard h.count >= n.count, let base = h.baseAddress else { return false }
                let first = Int32(n[0])
                var i = 0
                let last = h.count - n.count
                while i <= last {
                    // memchr finds candidates for the first byte at memory speed.
                    guard let p = memchr(base + i, first, last - i + 1) else { return false }
                    i = UnsafeRawPointer(p) - UnsafeRawPointer(base)
                    var k = 1
                    while k < n.count, h[i + k] == n[k] { k += 1 }
                    if k == n.count { return true }
                    i += 1
                }
                return false
            }
        }
    }

    /// Whether these bytes contain `needle` (ASCII), ASCII letters matching in either case.
    func containsBytesIgnoringASCIICase(_ needle: String) -> Bool {
        let n = Array(needle.lowercased().utf8)
        guard let first = n.first else { return true }
        let firstUpper = first &- 0x61 < 26 ? first - 0x20 : first
        return withBytes { h in
            guard h.count >= n.count else { return false }
            var i = 0
            let last = h.count - n.count
            while i <= last {
                let b = h[i]
                if b == first || b == firstUpper {
                    var k = 1
                    while k < n.count {
                        let c = h[i + k]
                        if (c &- 0x41 < 26 ? c | 0x20 : c) != n[k] { break }
                        k += 1
                    }
                    if k == n.count { return true }
                }
                i += 1
            }
            return false
        }
    }

    /// Whether these bytes contain `byte`: `memchr`, where the generic `contains` goes byte by
    /// byte through the view's indices (every block of every book is searched for brackets).
    func containsByte(_ byte: UInt8) -> Bool {
        withBytes { h in
            guard let base = h.baseAddress else { return false }
            return memchr(base, Int32(byte), h.count) != nil
        }
    }

    /// The bytes, contiguous (`TextFold.replacingDevanagariWords`).
    func withBytesForFold<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { withBytes(body) }

    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = withContiguousStorageIfAvailable(body) { return result }
        return Array(self).withUnsafeBufferPointer(body)
    }
}
