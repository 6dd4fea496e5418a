internal import CSndFile
import Contracts
import Foundation

extension AudioFileInfo {
    /// Reads the header of the audio file at `path` (`sf_open` for reading, `SF_INFO`).
    ///
    /// - Throws: `AudioError.readFailed` with libsndfile's message.
    public static func inspect(path: String) throws -> AudioFileInfo {
        try withReadHandle(path) { _, info in
            let rate = Int(info.samplerate)
            let frames = Int(info.frames)
            return AudioFileInfo(
                sampleRate: rate, frames: frames, channels: Int(info.channels),
                duration: rate > 0 ? Double(frames) / Double(rate) : 0, format: format(of: info.format))
        }
    }

    /// Reads up to `limit` frames of the first channel as 16-bit samples (for tests and checks).
    public static func readSamples(path: String, limit: Int = 50_000_000) throws -> [Int16] {
        try withReadHandle(path) { handle, info in
            let channels = max(Int(info.channels), 1)
            var result: [Int16] = []
            var buffer = [Int16](repeating: 0, count: 4_096 * channels)
            while result.count < limit {
                let read = buffer.withUnsafeMutableBufferPointer {
                    Int(sf_readf_short(handle, $0.baseAddress, sf_count_t(4_096)))
                }
                guard read > 0 else { break }
                for frame in 0..<read { result.append(buffer[frame * channels]) }
            }
            return Array(result.prefix(limit))
        }
    }

    static func format(of sfFormat: Int32) -> AudioFormat? {
        let major = Int(sfFormat) & Int(SF_FORMAT_TYPEMASK)
        let sub = Int(sfFormat) & Int(SF_FORMAT_SUBMASK)
        switch major {
        case Int(SF_FORMAT_WAV): return .wav
        case Int(SF_FORMAT_FLAC): return .flac
        case Int(SF_FORMAT_MPEG): return .mp3
        case Int(SF_FORMAT_OGG):
            if sub == Int(SF_FORMAT_OPUS) { return .opus }
            if sub == Int(SF_FORMAT_VORBIS) { return .ogg }
            return nil
        default: return nil
        }
    }
}

extension AudioTags {
    /// Reads the tags of the audio file at `path` (`sf_get_string`). Text that is not valid UTF-8
    /// (MP3's Latin-1) is decoded as Latin-1.
    public static func read(path: String) throws -> AudioTags {
        try withReadHandle(path) { handle, _ in
            func string(_ type: Int32) -> String? {
                guard let pointer = sf_get_string(handle, type) else { return nil }
                let bytes = Array(UnsafeBufferPointer(start: pointer, count: strlen(pointer))).map {
                    UInt8(bitPattern: $0)
                }
                if let text = String(validating: bytes, as: UTF8.self) { return text }
                return String(bytes.map { Character(Unicode.Scalar($0)) })
            }
            return AudioTags(
                title: string(Int32(SF_STR_TITLE)), album: string(Int32(SF_STR_ALBUM)),
                artist: string(Int32(SF_STR_ARTIST)), trackNumber: string(Int32(SF_STR_TRACKNUMBER)),
                genre: string(Int32(SF_STR_GENRE)), date: string(Int32(SF_STR_DATE)),
                comment: string(Int32(SF_STR_COMMENT)))
        }
    }
}

/// Opens `path` for reading, runs `body`, closes.
private func withReadHandle<T>(_ path: String, _ body: (OpaquePointer, SF_INFO) throws -> T) throws -> T {
    var info = SF_INFO()
    guard let handle = sf_open(path, Int32(SFM_READ), &info) else {
        throw AudioError.readFailed(path: path, message: AudioFileWriter.message(nil))
    }
    defer { sf_close(handle) }
    return try body(handle, info)
}
