/// Images for tests of covers.
public enum TestImages {
    /// A 24×24 RGB PNG of a colour gradient: a picture large enough to be a cover (a picture of 16
    /// pixels or fewer on a side is a placeholder, `AudiobookCover.placeholderSide`) and small enough
    /// to embed in every file of a test.
    public static let png = png(width: 24, height: 24)

    /// An RGB PNG of `width` × `height` pixels, a gradient (red across, green down), written without
    /// compression (stored deflate blocks), so that no image library is needed to make it.
    public static func png(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)  // filter: none
            for x in 0..<width {
                raw += [UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)), 0x80]
            }
        }
        let header =
            bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]  // 8 bits, RGB, no interlace
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", zlibStored(raw))
            + chunk("IEND", [])
    }

    /// A zlib stream of `data` in stored (uncompressed) deflate blocks (RFC 1950, RFC 1951 3.2.4).
    static func zlibStored(_ data: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let count = min(65_535, data.count - at)
            let final: UInt8 = at + count == data.count ? 1 : 0
            out += [final, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += data[at..<at + count]
            at += count
        } while at < data.count
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in data {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return out + bigEndian(b << 16 | a)
    }

    /// A PNG chunk: length, type, data, CRC-32 of type and data.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    /// CRC-32 (ISO 3309, as PNG uses it).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }
}
