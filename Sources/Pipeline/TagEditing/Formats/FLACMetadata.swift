import Foundation

/// FLAC metadata blocks the bundler writes itself: the cue sheet (ffmpeg 5.1 writes none) and the
/// picture block that Ogg files carry base64-encoded as a `METADATA_BLOCK_PICTURE` comment (ffmpeg 5.1
/// cannot put a picture stream in Ogg); the section files' cover (`CoverArt`) uses the same picture
/// block and `rewrite`. Pure over bytes, except `insertBlocks` and `rewrite`, which stream a file.
///
/// Layouts follow the FLAC format specification (RFC 9639), sections 8.7 (CUESHEET) and 8.8 (PICTURE).
package enum FLACMetadata {
    /// Metadata block types (RFC 9639, 8.1).
    package enum BlockType: UInt8 {
        case streamInfo = 0, padding = 1, vorbisComment = 4, cueSheet = 5, picture = 6
    }

    /// A block's body is at most 2^24 - 1 bytes (its length field has 24 bits).
    package static let maxBlockBytes = (1 << 24) - 1

    /// A cue sheet counts its tracks in one byte, the lead-out included, and the lead-out of a
    /// non-CD cue sheet is track 255: at most 254 chapters.
    package static let maxCueSheetTracks = 254

    /// A CUESHEET body for a non-CD-DA stream: track `n` (1-based) starts at `starts[n - 1]` samples
    /// with one index point at its start; the lead-out (track 255) at `totalSamples`. Nil when there
    /// are more than `maxCueSheetTracks` starts or none.
    package static func cueSheet(starts: [Int], totalSamples: Int) -> [UInt8]? {
        guard !starts.isEmpty, starts.count <= maxCueSheetTracks else { return nil }
        var out = [UInt8](repeating: 0, count: 128)  // media catalog number: none
        out += bigEndian(UInt64(0), bytes: 8)  // lead-in samples: 0 for non-CD-DA
        out += [UInt8](repeating: 0, count: 259)  // is-CD flag clear, reserved
        out.append(UInt8(starts.count + 1))
        for (index, start) in starts.enumerated() {
            out += bigEndian(UInt64(start), bytes: 8)
            out.append(UInt8(index + 1))
            out += [UInt8](repeating: 0, count: 12 + 14)  // no ISRC; audio, no pre-emphasis; reserved
            out.append(1)  // one index point: index 1 at the track's start
            out += bigEndian(UInt64(0), bytes: 8) + [1, 0, 0, 0]
        }
        out += bigEndian(UInt64(totalSamples), bytes: 8)
        out.append(255)
        out += [UInt8](repeating: 0, count: 12 + 14)
        out.append(0)
        return out
    }

    /// A PICTURE body: front cover (type 3), the MIME type, no description, the image's size when
    /// its header tells it (else 0, which readers accept), then the bytes.
    package static func picture(_ cover: AudiobookCover) -> [UInt8] {
        let mime = Array((cover.fileExtension == "png" ? "image/png" : "image/jpeg").utf8)
        let size = imageSize(cover.data)
        var out = bigEndian(UInt64(3), bytes: 4)
        out += bigEndian(UInt64(mime.count), bytes: 4) + mime
        out += bigEndian(UInt64(0), bytes: 4)  // description: empty
        out += bigEndian(UInt64(size?.width ?? 0), bytes: 4)
        out += bigEndian(UInt64(size?.height ?? 0), bytes: 4)
        out += bigEndian(UInt64(size?.depth ?? 0), bytes: 4)
        out += bigEndian(UInt64(0), bytes: 4)  // colours used: 0, not an indexed image
        out += bigEndian(UInt64(cover.data.count), bytes: 4) + cover.data
        return out
    }

    /// Width, height and bits per pixel from a PNG's IHDR or a JPEG's first SOF marker; nil when
    /// the header cannot be read. Bounded by the bytes given.
    package static func imageSize(_ data: [UInt8]) -> (width: Int, height: Int, depth: Int)? {
        func be(_ at: Int, _ count: Int) -> Int? {
            guard at >= 0, at + count <= data.count else { return nil }
            return data[at..<at + count].reduce(0) { $0 << 8 | Int($1) }
        }
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47]) {
            // IHDR: width, height, bit depth, colour type (channels: 0 grey, 2 RGB, 3 palette, 4 grey+alpha, 6 RGBA).
            guard let width = be(16, 4), let height = be(20, 4), let bits = be(24, 1), let type = be(25, 1)
            else { return nil }
            let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][type] ?? 1
            return (width, height, bits * channels)
        }
        var at = 2
        while at + 4 <= data.count {
            guard data[at] == 0xFF else { return nil }
            let marker = data[at + 1]
            if marker == 0xFF {
                at += 1
                continue
            }
            guard let length = be(at + 2, 2), length >= 2 else { return nil }
            // SOF0...SOF15 but DHT (C4), JPG (C8) and DAC (CC): precision, height, width, components.
            if (0xC0...0xCF).contains(marker), ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard let bits = be(at + 4, 1), let height = be(at + 5, 2), let width = be(at + 7, 2),
                    let components = be(at + 9, 1)
                else { return nil }
                return (width, height, bits * components)
            }
            at += 2 + length
        }
        return nil
    }

    /// The value of a Vorbis comment `METADATA_BLOCK_PICTURE=` (the Xiph convention for covers in
    /// Ogg Vorbis and Ogg Opus): the PICTURE body, base64-encoded.
    package static func vorbisCommentPicture(_ cover: AudiobookCover) -> String {
        Data(picture(cover)).base64EncodedString()
    }

    /// Rewrites the FLAC file at `source` into `destination` with `blocks` inserted right after
    /// STREAMINFO (before the Vorbis comments, so readers that take chapter names from the comments
    /// see them after the cue sheet's bare marks); the audio is copied as it is.
    ///
    /// - Throws: `TagEditingError.malformed` when `source` is not a FLAC file or a block is too
    ///   large, `.unusable` (or `.system`) when a file cannot be read or written.
    package static func insertBlocks(_ blocks: [(BlockType, [UInt8])], from source: String, to destination: String)
        throws
    {
        try rewrite(from: source, to: destination) { parsed in
            [parsed[0]] + blocks.map { (type: $0.0.rawValue, body: $0.1[...]) } + parsed.dropFirst()
        }
    }

    /// One metadata block: its type (the last-block flag cleared) and its body.
    package typealias Block = (type: UInt8, body: ArraySlice<UInt8>)

    /// Rewrites the FLAC file at `source` into `destination` with the metadata blocks `edit` returns
    /// from the file's own (STREAMINFO first); the last-block flags are set anew and the audio frames
    /// are copied as they are, streamed.
    ///
    /// - Throws: `TagEditingError.malformed` when `source` is not a FLAC file, does not start with STREAMINFO, or a
    ///   block would exceed `maxBlockBytes`; `TagEditingError.unusable` (or `.system`) when a
    ///   file cannot be read or written.
    package static func rewrite(from source: String, to destination: String, edit: ([Block]) throws -> [Block]) throws {
        guard let input = FileHandle(forReadingAtPath: source) else {
            throw TagEditingError.unusable(path: source, reason: "cannot read the file")
        }
        defer { try? input.close() }
        // The metadata ends within the first blocks; a picture can make that a few megabytes.
        var head = [UInt8]()
        var parsed: [Block] = []
        func need(_ count: Int) throws {
            while head.count < count {
                guard let more = try input.read(upToCount: max(65_536, count - head.count)), !more.isEmpty else {
                    throw TagEditingError.malformed(reason: "ends inside its metadata")
                }
                head += more
            }
        }
        do { try need(4) } catch TagEditingError.malformed {
            throw TagEditingError.malformed(reason: "is not a FLAC file")
        }
        guard head.starts(with: Array("fLaC".utf8)) else {
            throw TagEditingError.malformed(reason: "is not a FLAC file")
        }
        var at = 4
        var last = false
        while !last {
            try need(at + 4)
            last = head[at] & 0x80 != 0
            let length = Int(head[at + 1]) << 16 | Int(head[at + 2]) << 8 | Int(head[at + 3])
            try need(at + 4 + length)
            parsed.append((head[at] & 0x7F, head[at + 4..<at + 4 + length]))
            at += 4 + length
        }
        guard parsed.first?.type == BlockType.streamInfo.rawValue else {
            throw TagEditingError.malformed(reason: "does not start with STREAMINFO")
        }
        let all = try edit(parsed)
        guard all.allSatisfy({ $0.body.count <= maxBlockBytes }) else {
            throw TagEditingError.malformed(reason: "would have a metadata block larger than 16 MB")
        }
        var out = Array("fLaC".utf8)
        for (index, block) in all.enumerated() {
            out.append((index == all.count - 1 ? 0x80 : 0) | block.type)
            out += bigEndian(UInt64(block.body.count), bytes: 3)
            out += block.body
        }
        out += head[at...]

        guard FileManager.default.createFile(atPath: destination, contents: Data(out)),
            let output = FileHandle(forWritingAtPath: destination)
        else { throw TagEditingError.unusable(path: destination, reason: "cannot create the file") }
        defer { try? output.close() }
        do {
            try output.seekToEnd()
            while let chunk = try input.read(upToCount: 1 << 20), !chunk.isEmpty { try output.write(contentsOf: chunk) }
            try output.synchronize()
        } catch {
            throw TagEditingError.failure(error, path: destination)
        }
    }

    package static func bigEndian(_ value: UInt64, bytes: Int) -> [UInt8] {
        (0..<bytes).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * UInt64($0))) }
    }
}
