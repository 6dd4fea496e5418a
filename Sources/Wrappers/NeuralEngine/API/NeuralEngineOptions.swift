/// How a `NeuralSpeechEngine` runs its model.
public struct NeuralEngineOptions: Hashable, Sendable, Codable {
    /// How the model's random sampling is set.
    public enum Sampling: String, Hashable, Sendable, Codable {
        /// Noise scales of 1e-30 (`reproducibleNoiseScale`): a sentence gives the same samples every time,
        /// whatever was spoken before, in any process and with any number of threads (measured with
        /// en_US-joe-medium: docs/architecture.md, "Neural voices"). The voice is the model's mean: steady,
        /// a little flatter in pitch and timing than Piper's default. The default, because resume and
        /// `--jobs` must give byte-identical files.
        case reproducible
        /// The voice's own `inference` settings (Piper's defaults, usually 0.667 and 0.8): livelier, but every
        /// run of a sentence differs (onnxruntime draws unseeded noise).
        case voiceDefaults
    }

    /// The noise scale `Sampling.reproducible` uses. Not 0: sherpa-onnx's C API reads 0 as "unset" and puts its
    /// defaults (0.667, 0.8) in its place. At 1e-30 the noise is below float precision of everything it is added
    /// to, so the graph's random draws no longer reach the output.
    public static let reproducibleNoiseScale: Float = 1e-30

    /// onnxruntime threads for this engine's model (1 per worker process: parallelism is across processes).
    public var threads: Int
    /// Samples per second handed to `synthesize`'s output; nil for the voice's own rate. Another rate is
    /// reached with libsoxr, sentence by sentence (so a sentence's samples do not depend on the one before).
    public var outputSampleRate: Int?
    /// The sampling.
    public var sampling: Sampling

    /// Threads allowed.
    public static let threadRange = 1...16

    /// One thread, the voice's rate, reproducible sampling unless told otherwise.
    public init(threads: Int = 1, outputSampleRate: Int? = nil, sampling: Sampling = .reproducible) {
        self.threads = threads
        self.outputSampleRate = outputSampleRate
        self.sampling = sampling
    }
}
