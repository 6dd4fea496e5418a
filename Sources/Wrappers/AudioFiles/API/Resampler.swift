internal import CSoxr

/// A streaming 16-bit mono resampler (libsoxr, high quality); owns its `soxr_t`.
///
/// The output is the same whether the input arrives in one piece or in many. With `dither` (libsoxr's
/// default for 16-bit output) its lowest bits vary from one resampler to the next: libsoxr seeds the dither
/// from the clock and the object's address. Without it, output for a given input is deterministic, which
/// a caller that must give the same bytes twice needs. Public for the engines whose voices speak at another
/// rate than the output's (the neural engine: a Piper voice at 22,050 Hz resampled to the conversion's rate).
public final class Resampler {
    private let handle: OpaquePointer
    /// Samples per second of the input.
    public let inputRate: Int
    /// Samples per second of the output.
    public let outputRate: Int
    private var output: [Int16]

    /// A resampler from `inputRate` to `outputRate`, with libsoxr's random dither on its 16-bit output
    /// unless `dither` is false; throws the libsoxr error message.
    public init(from inputRate: Int, to outputRate: Int, dither: Bool = true) throws(ResamplerError) {
        var error: soxr_error_t? = nil
        var io = soxr_io_spec(SOXR_INT16_I, SOXR_INT16_I)
        if !dither { io.flags |= UInt(SOXR_NO_DITHER) }
        var quality = soxr_quality_spec(UInt(SOXR_HQ), 0)
        let created = soxr_create(Double(inputRate), Double(outputRate), 1, &error, &io, &quality, nil)
        guard let created, error == nil else {
            if let created { soxr_delete(created) }
            throw ResamplerError(message: error.map { String(cString: $0) } ?? "soxr_create failed")
        }
        handle = created
        self.inputRate = inputRate
        self.outputRate = outputRate
        output = [Int16](repeating: 0, count: 8_192)
    }

    deinit {
        soxr_delete(handle)
    }

    /// Resamples `input` and hands the output to `body` in pieces.
    public func process(_ input: UnsafeBufferPointer<Int16>, _ body: (UnsafeBufferPointer<Int16>) throws -> Void) throws
    {
        var offset = 0
        while offset < input.count {
            let (consumed, produced) = try run(input: UnsafeBufferPointer(rebasing: input[offset...]))
            offset += consumed
            try emit(produced, body)
            if consumed == 0 && produced == 0 { break }
        }
    }

    /// Flushes what the filter still holds at the end of the stream.
    public func flush(_ body: (UnsafeBufferPointer<Int16>) throws -> Void) throws {
        while true {
            let (_, produced) = try run(input: nil)
            guard produced > 0 else { return }
            try emit(produced, body)
        }
    }

    private func run(input: UnsafeBufferPointer<Int16>?) throws(ResamplerError) -> (consumed: Int, produced: Int) {
        var consumed = 0
        var produced = 0
        let error = output.withUnsafeMutableBufferPointer { out in
            soxr_process(
                handle, input?.baseAddress, input?.count ?? 0, &consumed, out.baseAddress, out.count, &produced)
        }
        if let error { throw ResamplerError(message: String(cString: error)) }
        return (consumed, produced)
    }

    private func emit(_ count: Int, _ body: (UnsafeBufferPointer<Int16>) throws -> Void) throws {
        guard count > 0 else { return }
        try output.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[0..<count])) }
    }
}

/// A libsoxr failure, with its message.
public struct ResamplerError: Error, CustomStringConvertible {
    /// libsoxr's own text.
    public let message: String

    /// The message, prefixed with what failed.
    public var description: String { "resampling failed: \(message)" }
}
