import Foundation

extension String.UTF8View {
    /// Whether these bytes contain `needle`'s bytes: a plain byte search (`memmem`).
    ///
    /// Foundation's `String.contains(_:)` compares grapheme clusters with canonical equivalence and
    /// is slow on long text. For the ASCII phrases searched in folded or lower-cased text the two
    /// agree (an ASCII letter of folded text is never followed by a combining mark: folding removed
    /// them), so this is used there.
    func containsBytes(_ needle: String) -> Bool {
        withBytes { haystack in
            var needle = needle
            return needle.withUTF8 { pattern in
                guard pattern.count > 0 else { return true }
                guard haystack.count >= pattern.count, let base = haystack.baseAddress else { return false }
                let first = Int32(pattern[0])
                var offset = 0
                let last = haystack.count - pattern.count
                while offset <= last {
                    // memchr finds candidates for the first byte at memory speed.
                    guard let found = memchr(base + offset, first, last - offset + 1) else { return false }
                    offset = UnsafeRawPointer(found) - UnsafeRawPointer(base)
                    var matched = 1
                    while matched < pattern.count, haystack[offset + matched] == pattern[matched] { matched += 1 }
                    if matched == pattern.count { return true }
                    offset += 1
                }
                return false
            }
        }
    }

    /// Whether these bytes contain `needle` (ASCII), ASCII letters matching in either case.
    func containsBytesIgnoringASCIICase(_ needle: String) -> Bool {
        let pattern = Array(needle.lowercased().utf8)
        guard let first = pattern.first else { return true }
        let firstUpper = first &- 0x61 < 26 ? first - 0x20 : first
        return withBytes { haystack in
            guard haystack.count >= pattern.count else { return false }
            var offset = 0
            let last = haystack.count - pattern.count
            while offset <= last {
                let byte = haystack[offset]
                if byte == first || byte == firstUpper {
                    var matched = 1
                    while matched < pattern.count {
                        let candidate = haystack[offset + matched]
                        if (candidate &- 0x41 < 26 ? candidate | 0x20 : candidate) != pattern[matched] { break }
                        matched += 1
                    }
                    if matched == pattern.count { return true }
                }
                offset += 1
            }
            return false
        }
    }

    /// Whether these bytes contain `byte`: `memchr`, where the generic `contains` goes byte by
    /// byte through the view's indices (every block of every book is searched for brackets).
    func containsByte(_ byte: UInt8) -> Bool {
        withBytes { haystack in
            guard let base = haystack.baseAddress else { return false }
            return memchr(base, Int32(byte), haystack.count) != nil
        }
    }

    /// The bytes, contiguous (`TextFold.replacingDevanagariWords`).
    func withBytesForFold<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R { withBytes(body) }

    private func withBytes<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        if let result = withContiguousStorageIfAvailable(body) { return result }
        return Array(self).withUnsafeBufferPointer(body)
    }
}
