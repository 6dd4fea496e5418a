internal import CSndFile
import Contracts

#if canImport(Glibc)
    import Glibc
#endif

/// Whether this libsndfile can write a format, found by writing a short file of it into memory
/// and reading it back (libsndfile's virtual I/O).
///
/// A file on disk would do the same, but it needs a writable temporary folder: with `TMPDIR`
/// unusable (read-only, missing, full), every format failed the check, and a conversion was
/// refused with "the installed libsndfile cannot write wav files".
enum FormatProbe {
    /// Frames written: a tenth of a second at 22,050 Hz, enough for every encoder to emit audio.
    private static let frames = 2_205

    static func canWrite(_ format: AudioFormat) -> Bool {
        let file = MemoryFile()
        var info = SF_INFO()
        info.samplerate = Int32(format.fileSampleRate(forInput: 22_050))
        info.channels = 1
        info.format = AudioFileWriter.sfFormat(format)
        guard sf_format_check(&info) != 0 else { return false }
        let silence = [Int16](repeating: 0, count: frames)
        let wrote = file.open(mode: Int32(SFM_WRITE), info: info) { handle, _ in
            silence.withUnsafeBufferPointer { sf_writef_short(handle, $0.baseAddress, sf_count_t(frames)) }
                == sf_count_t(frames)
        }
        guard wrote else { return false }
        file.position = 0
        return file.open(mode: Int32(SFM_READ), info: SF_INFO()) { _, readBack in readBack.frames > 0 }
    }
}

/// A growable byte buffer that libsndfile reads and writes as a file (`sf_open_virtual`).
private final class MemoryFile {
    var bytes: [UInt8] = []
    var position = 0

    /// Opens the buffer with libsndfile (`info` as `sf_open_virtual` takes it), runs `body` on the
    /// handle and the info the open filled in, and closes it; false when opening, `body` or closing
    /// fails.
    func open(mode: Int32, info: SF_INFO, _ body: (OpaquePointer, SF_INFO) -> Bool) -> Bool {
        var io = Self.io
        var info = info
        let context = Unmanaged.passUnretained(self).toOpaque()
        return withExtendedLifetime(self) {
            guard let handle = sf_open_virtual(&io, mode, &info, context) else { return false }
            let succeeded = body(handle, info)
            return sf_close(handle) == 0 && succeeded
        }
    }

    private static func file(_ context: UnsafeMutableRawPointer?) -> MemoryFile {
        Unmanaged<MemoryFile>.fromOpaque(context!).takeUnretainedValue()
    }

    private static let io = SF_VIRTUAL_IO(
        get_filelen: { context in sf_count_t(file(context).bytes.count) },
        seek: { offset, whence, context in
            let file = file(context)
            let base =
                switch whence {
                case SEEK_CUR: file.position
                case SEEK_END: file.bytes.count
                default: 0
                }
            let target = base + Int(offset)
            guard target >= 0 else { return -1 }
            file.position = target
            return sf_count_t(target)
        },
        read: { pointer, count, context in
            let file = file(context)
            let available = max(0, min(Int(count), file.bytes.count - file.position))
            guard available > 0, let pointer else { return 0 }
            file.bytes.withUnsafeBytes { source in
                pointer.copyMemory(from: source.baseAddress! + file.position, byteCount: available)
            }
            file.position += available
            return sf_count_t(available)
        },
        write: { pointer, count, context in
            let file = file(context)
            guard count > 0, let pointer else { return 0 }
            let end = file.position + Int(count)
            if end > file.bytes.count { file.bytes += [UInt8](repeating: 0, count: end - file.bytes.count) }
            file.bytes.withUnsafeMutableBytes { target in
                (target.baseAddress! + file.position).copyMemory(from: pointer, byteCount: Int(count))
            }
            file.position = end
            return count
        },
        tell: { context in sf_count_t(file(context).position) })
}
