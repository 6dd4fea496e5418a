internal import CSndFile
import Contracts
import Foundation

/// Writes 16-bit mono PCM to an audio file as it arrives (libsndfile), in constant memory
/// (`bufferFrames` gathered at a time).
///
/// Tags are written at creation, before any audio (libsndfile keeps them only then for every
/// format but WAV). Opus files get resampled PCM (libsoxr, e.g. 22,050 → 24,000 Hz) because Opus
/// accepts only 8, 12, 16, 24 and 48 kHz. Call `close()` and check its error: a failed close can
/// leave an incomplete file. Not thread-safe; one owner.
public final class AudioFileWriter: AudioSink {
    /// Where the file is written.
    public let path: String
    /// The format and encoder settings of the file.
    public let encoding: AudioEncoding
    /// Rate of the PCM handed to `write` and `writeSilence`.
    public let inputSampleRate: Int
    /// Rate of the file (differs from the input only for Opus).
    public let fileSampleRate: Int
    /// Tag fields the format refused (`sf_set_string` failed); the file is written without them.
    public private(set) var droppedTags: [String] = []
    /// Frames handed to `write`/`writeSilence` so far, at the input rate.
    public private(set) var inputFrames = 0

    private var handle: OpaquePointer?
    private let resampler: Resampler?
    private static let silenceBlock = [Int16](repeating: 0, count: 4_096)
    /// Samples (at the file's rate) not yet handed to libsndfile: at most `bufferFrames`.
    private var pending: [Int16] = []

    /// Samples gathered before one call to libsndfile. The engine delivers audio in pieces of a
    /// few kilobytes, and libsndfile writes a WAV, FLAC or MP3 file with a system call per call:
    /// a short section cost some 60 writes, each through the file system's per-write work. 64 KiB
    /// at a time costs a few (the bytes of those formats are the same either way).
    public static let bufferFrames = 32_768

    /// Creates (or replaces) the file at `path` and writes `tags`.
    ///
    /// - Throws: `AudioError.formatUnavailable` when this libsndfile cannot write the format,
    ///   `.invalidOption` for an encoder setting the format lacks or a level outside 0...1,
    ///   `.openFailed` with libsndfile's message (a missing directory, no permission...).
    public init(path: String, encoding: AudioEncoding, sampleRate: Int, tags: AudioTags = AudioTags()) throws {
        let format = encoding.format
        if let level = encoding.compressionLevel {
            guard format.supportsCompressionLevel else {
                throw AudioError.invalidOption("compression level (\(format.rawValue) has none)", format: format)
            }
            guard (0...1).contains(level) else {
                throw AudioError.invalidOption("compression level \(level) is outside 0...1", format: format)
            }
        }
        if encoding.bitrateMode != nil, !format.supportsBitrateMode {
            throw AudioError.invalidOption("bitrate mode (only mp3 has one)", format: format)
        }
        guard sampleRate > 0 else { throw AudioError.invalidOption("sample rate \(sampleRate)", format: format) }
        self.path = path
        self.encoding = encoding
        inputSampleRate = sampleRate
        fileSampleRate = format.fileSampleRate(forInput: sampleRate)
        // No dither: libsoxr seeds it from the clock, and the same section must make the same file.
        do {
            resampler =
                fileSampleRate == sampleRate ? nil : try Resampler(from: sampleRate, to: fileSampleRate, dither: false)
        } catch {
            throw AudioError.resampler(path: path, message: error.message)
        }

        var info = SF_INFO()
        info.samplerate = Int32(fileSampleRate)
        info.channels = 1
        info.format = Self.sfFormat(format)
        guard sf_format_check(&info) != 0 else { throw AudioError.formatUnavailable(format, path: path) }
        let existed = FileManager.default.fileExists(atPath: path)
        guard let opened = sf_open(path, Int32(SFM_WRITE), &info) else {
            let message = String(cString: sf_strerror(nil))
            // A failed open can leave a 0-byte file behind (Opus at an unsupported rate did).
            if !existed { try? FileManager.default.removeItem(atPath: path) }
            throw AudioError.openFailed(path: path, message: message)
        }
        handle = opened
        do {
            try applyEncoderSettings()
            try writeTags(tags)
        } catch {
            sf_close(opened)
            handle = nil
            if !existed { try? FileManager.default.removeItem(atPath: path) }
            throw error
        }
    }

    deinit {
        // Without close() errors go unnoticed; still finish the file rather than leak the handle.
        if let handle {
            try? flushPending(handle)
            sf_close(handle)
        }
    }

    /// Whether this libsndfile can write `format`: a short file of it is written and read back,
    /// in memory (no temporary folder needed).
    public static func canWrite(_ format: AudioFormat) -> Bool { FormatProbe.canWrite(format) }

    /// The formats this libsndfile can write, checked once per process as `canWrite` checks one.
    public static func availableFormats() -> Set<AudioFormat> { probedFormats }

    private static let probedFormats = Set(AudioFormat.allCases.filter(FormatProbe.canWrite))

    /// Appends samples (at `inputSampleRate`).
    public func write(_ samples: UnsafeBufferPointer<Int16>) throws {
        guard let handle else { throw AudioError.closed(path: path) }
        inputFrames += samples.count
        if let resampler {
            do {
                try resampler.process(samples) { try writeToFile(handle, $0) }
            } catch let error as ResamplerError {
                throw AudioError.resampler(path: path, message: error.message)
            }
        } else {
            try writeToFile(handle, samples)
        }
    }

    /// Appends `frames` frames of silence (at `inputSampleRate`).
    public func writeSilence(frames: Int) throws {
        guard frames >= 0 else { throw AudioError.invalidSilence(frames: frames, path: path) }
        var remaining = frames
        while remaining > 0 {
            let count = min(remaining, Self.silenceBlock.count)
            try Self.silenceBlock.withUnsafeBufferPointer { try write(UnsafeBufferPointer(rebasing: $0[0..<count])) }
            remaining -= count
        }
    }

    /// Flushes the resampler and closes the file. A second call does nothing.
    ///
    /// - Throws: `AudioError.closeFailed` with libsndfile's message when the file could not be
    ///   finished (disk full...); the file is then likely incomplete.
    public func close() throws {
        guard let handle else { return }
        var failure: (any Error)?
        if let resampler {
            do {
                try resampler.flush { try writeToFile(handle, $0) }
            } catch let error as ResamplerError {
                failure = AudioError.resampler(path: path, message: error.message)
            } catch {
                failure = error
            }
        }
        if failure == nil {
            do { try flushPending(handle) } catch { failure = error }
        }
        self.handle = nil
        let status = sf_close(handle)
        if let failure { throw failure }
        guard status == 0 else {
            throw AudioError.closeFailed(path: path, message: String(cString: sf_error_number(status)))
        }
    }

    // MARK: - libsndfile calls

    /// Gathers `samples` in `pending`, handing libsndfile `bufferFrames` at a time (a block at
    /// least that long goes straight through once what is pending is written).
    private func writeToFile(_ handle: OpaquePointer, _ samples: UnsafeBufferPointer<Int16>) throws {
        guard !samples.isEmpty else { return }
        if pending.count + samples.count < Self.bufferFrames {
            if pending.capacity < Self.bufferFrames { pending.reserveCapacity(Self.bufferFrames) }
            pending.append(contentsOf: samples)
            return
        }
        try flushPending(handle)
        if samples.count >= Self.bufferFrames {
            try writeThrough(handle, samples)
        } else {
            pending.append(contentsOf: samples)
        }
    }

    private func flushPending(_ handle: OpaquePointer) throws {
        guard !pending.isEmpty else { return }
        try pending.withUnsafeBufferPointer { try writeThrough(handle, $0) }
        pending.removeAll(keepingCapacity: true)
    }

    private func writeThrough(_ handle: OpaquePointer, _ samples: UnsafeBufferPointer<Int16>) throws {
        guard let base = samples.baseAddress, !samples.isEmpty else { return }
        let written = sf_write_short(handle, base, sf_count_t(samples.count))
        guard written == sf_count_t(samples.count) else {
            throw AudioError.writeFailed(path: path, message: Self.message(handle))
        }
    }

    private func applyEncoderSettings() throws {
        guard let handle else { return }
        // MP3 needs the compression level before the bitrate mode: setting the mode re-applies the level, and
        // libsndfile refuses a level left unset, so a mode without one gets `levelWithBitrateMode`.
        let level = encoding.compressionLevel ?? (encoding.bitrateMode == nil ? nil : Self.levelWithBitrateMode)
        if var level {
            let ok = sf_command(handle, Int32(SFC_SET_COMPRESSION_LEVEL), &level, Int32(MemoryLayout<Double>.size))
            guard ok == Int32(SF_TRUE) else {
                throw AudioError.invalidOption(
                    "compression level \(level) refused by the encoder", format: encoding.format)
            }
        }
        if let mode = encoding.bitrateMode {
            var value: Int32
            switch mode {
            case .constant: value = Int32(SF_BITRATE_MODE_CONSTANT)
            case .average: value = Int32(SF_BITRATE_MODE_AVERAGE)
            case .variable: value = Int32(SF_BITRATE_MODE_VARIABLE)
            }
            let ok = sf_command(handle, Int32(SFC_SET_BITRATE_MODE), &value, Int32(MemoryLayout<Int32>.size))
            guard ok == Int32(SF_TRUE) else {
                throw AudioError.invalidOption(
                    "bitrate mode \(mode.rawValue) refused by the encoder", format: encoding.format)
            }
        }
    }

    private func writeTags(_ tags: AudioTags) throws {
        guard let handle else { return }
        let types: [Int32] = [
            Int32(SF_STR_TITLE), Int32(SF_STR_ALBUM), Int32(SF_STR_ARTIST), Int32(SF_STR_TRACKNUMBER),
            Int32(SF_STR_GENRE), Int32(SF_STR_DATE), Int32(SF_STR_COMMENT),
        ]
        for (field, type) in zip(tags.fields, types) {
            guard let value = field.value, !value.isEmpty else { continue }
            var bytes: [UInt8]
            if encoding.format == .mp3 {
                bytes = AudioTags.latin1(value, limit: Self.maxTagBytes)
            } else {
                bytes = Array(value.utf8.prefix(Self.maxTagBytes + 1))
                if bytes.count > Self.maxTagBytes {
                    // Cut where a scalar starts, never inside a UTF-8 sequence.
                    var cut = Self.maxTagBytes
                    while cut > 0, bytes[cut] & 0xC0 == 0x80 { cut -= 1 }
                    bytes.removeSubrange(cut...)
                }
            }
            guard !bytes.contains(0), !bytes.isEmpty else {
                droppedTags.append(field.name)
                continue
            }
            bytes.append(0)
            let status = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { sf_set_string(handle, type, $0.baseAddress) }
            }
            if status != 0 { droppedTags.append(field.name) }
        }
    }

    /// Tag text is bounded: book metadata is untrusted and a tag is not the place for a chapter.
    static let maxTagBytes = 1_024

    /// The compression level an MP3 encoder gets when a bitrate mode is asked without one: the middle of the
    /// scale (80 kbps constant or average at espeak-ng's 22,050 Hz, LAME's VBR quality 5). libsndfile
    /// re-applies the level when the mode is set and refuses an unset one, so the mode alone failed.
    public static let levelWithBitrateMode = 0.5

    static func sfFormat(_ format: AudioFormat) -> Int32 {
        switch format {
        case .wav: Int32(SF_FORMAT_WAV | SF_FORMAT_PCM_16)
        case .flac: Int32(SF_FORMAT_FLAC | SF_FORMAT_PCM_16)
        case .ogg: Int32(SF_FORMAT_OGG | SF_FORMAT_VORBIS)
        case .opus: Int32(SF_FORMAT_OGG | SF_FORMAT_OPUS)
        case .mp3: Int32(SF_FORMAT_MPEG | SF_FORMAT_MPEG_LAYER_III)
        }
    }

    /// The one place that reads libsndfile's error text for a handle (or the last open failure).
    static func message(_ handle: OpaquePointer?) -> String {
        String(cString: sf_strerror(handle))
    }
}
