/// What the neural engine needs to know of an ONNX model file, read from its bytes: that it is a
/// well-formed `ModelProto` with a graph, and its `metadata_props`; and the bytes that add metadata.
///
/// An ONNX file is one protobuf message (`onnx.proto`, `ModelProto`). Protobuf lets a message's fields come in
/// any order and repeated fields be spread out, so metadata entries appended at the end of the file are read
/// as if they had been written with the rest: that is how a Piper model gets the keys sherpa-onnx reads,
/// without Python or the `onnx` package.
///
/// Why check the structure at all: onnxruntime 1.x, inside sherpa-onnx 1.13.8, throws a C++ exception that
/// nothing catches for a file it cannot parse (the process aborts), and sherpa-onnx calls `exit` when a key
/// it needs is missing. The walk here catches a truncated or foreign file before either can happen. It checks
/// the top-level message and the graph's fields one level down; damage deeper inside a tensor whose lengths
/// still add up is not seen.
struct ONNXModel: Sendable {
    /// `ModelProto` field numbers used here (onnx.proto).
    enum Field {
        static let graph = 7
        static let metadataProps = 14
        /// `StringStringEntryProto.key` and `.value`.
        static let entryKey = 1
        static let entryValue = 2
    }

    /// Metadata entries at most; each key and value at most `maximumEntryBytes` (a real model has about ten).
    static let maximumEntries = 1_000
    static let maximumEntryBytes = 1 << 20

    /// The metadata, in file order (a key may repeat: the last one wins, as onnxruntime reads it).
    let metadata: [(key: String, value: String)]
    /// Bytes of the graph field's payload.
    let graphBytes: Int

    /// The last value of each key.
    var metadataByKey: [String: String] {
        Dictionary(metadata.map { ($0.key, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// Reads `bytes` as a `ModelProto`; throws `ONNXModelError` naming what is wrong.
    init(bytes: UnsafeRawBufferPointer) throws(ONNXModelError) {
        var reader = ProtobufReader(bytes: bytes, range: 0..<bytes.count)
        var metadata: [(key: String, value: String)] = []
        var graphBytes: Int?
        while let field = try reader.next() {
            switch (field.number, field.payload) {
            case (Field.graph, .bytes(let range)):
                var graph = ProtobufReader(bytes: bytes, range: range)
                while try graph.next() != nil {}
                graphBytes = range.count
            case (Field.metadataProps, .bytes(let range)):
                guard metadata.count < Self.maximumEntries else { throw .tooManyMetadataEntries }
                metadata.append(try Self.entry(bytes, range))
            case (Field.graph, _), (Field.metadataProps, _):
                throw .malformed("field \(field.number) has the wrong wire type")
            default:
                break
            }
        }
        guard let graphBytes, graphBytes > 0 else { throw .noGraph }
        self.metadata = metadata
        self.graphBytes = graphBytes
    }

    /// The bytes to append to a model file so that it carries `entries` as metadata (each a `metadata_props`
    /// field holding a `StringStringEntryProto`).
    static func metadataBytes(_ entries: [(key: String, value: String)]) -> [UInt8] {
        var out: [UInt8] = []
        for (key, value) in entries {
            var entry: [UInt8] = []
            appendLengthDelimited(Field.entryKey, Array(key.utf8), to: &entry)
            appendLengthDelimited(Field.entryValue, Array(value.utf8), to: &entry)
            appendLengthDelimited(Field.metadataProps, entry, to: &out)
        }
        return out
    }

    static func appendLengthDelimited(_ field: Int, _ payload: [UInt8], to out: inout [UInt8]) {
        appendVarint(UInt64(field << 3 | 2), to: &out)
        appendVarint(UInt64(payload.count), to: &out)
        out += payload
    }

    static func appendVarint(_ value: UInt64, to out: inout [UInt8]) {
        var value = value
        while value >= 0x80 {
            out.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        out.append(UInt8(value))
    }

    private static func entry(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) throws(ONNXModelError) -> (
        key: String, value: String
    ) {
        var reader = ProtobufReader(bytes: bytes, range: range)
        var key = ""
        var value = ""
        while let field = try reader.next() {
            guard case .bytes(let text) = field.payload,
                field.number == Field.entryKey || field.number == Field.entryValue
            else { continue }
            guard text.count <= maximumEntryBytes else { throw .malformed("a metadata entry is over 1 MiB") }
            let string = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[text]), as: UTF8.self)
            if field.number == Field.entryKey { key = string } else { value = string }
        }
        return (key, value)
    }
}

/// Why a file is not a model the engine can give to onnxruntime.
enum ONNXModelError: Error, Equatable, CustomStringConvertible {
    /// The protobuf wire format is broken (a length past the end, an unknown wire type...): truncated or not ONNX.
    case malformed(String)
    /// No graph: not an ONNX model.
    case noGraph
    /// More metadata entries than any model has.
    case tooManyMetadataEntries

    var description: String {
        switch self {
        case .malformed(let reason): "it is not a complete ONNX model (\(reason)); truncated or another kind of file"
        case .noGraph: "it is not an ONNX model (no graph)"
        case .tooManyMetadataEntries: "it has more than \(ONNXModel.maximumEntries) metadata entries"
        }
    }
}

/// Reads protobuf fields one after another within `range`, checking every length against the range.
struct ProtobufReader {
    /// A field's payload: a varint or fixed-size number (skipped), or the byte range of a length-delimited one.
    enum Payload {
        case number
        case bytes(Range<Int>)
    }

    let bytes: UnsafeRawBufferPointer
    let range: Range<Int>
    private(set) var offset: Int

    init(bytes: UnsafeRawBufferPointer, range: Range<Int>) {
        self.bytes = bytes
        self.range = range
        self.offset = range.lowerBound
    }

    /// The next field, nil at the end of the range; throws when a field does not fit in it.
    mutating func next() throws(ONNXModelError) -> (number: Int, payload: Payload)? {
        guard offset < range.upperBound else { return nil }
        let tag = try varint()
        let number = Int(truncatingIfNeeded: tag >> 3)
        guard number > 0 else { throw .malformed("field number 0 at byte \(offset)") }
        switch tag & 7 {
        case 0:
            _ = try varint()
            return (number, .number)
        case 1: return (number, try skip(8))
        case 5: return (number, try skip(4))
        case 2:
            let length = try varint()
            guard length <= UInt64(range.upperBound - offset) else {
                throw .malformed("field \(number) needs \(length) bytes, \(range.upperBound - offset) are left")
            }
            let payload = offset..<offset + Int(length)
            offset += Int(length)
            return (number, .bytes(payload))
        default:
            throw .malformed("wire type \(tag & 7) at byte \(offset)")
        }
    }

    private mutating func skip(_ count: Int) throws(ONNXModelError) -> Payload {
        guard range.upperBound - offset >= count else { throw .malformed("a fixed-size field past the end") }
        offset += count
        return .number
    }

    private mutating func varint() throws(ONNXModelError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while offset < range.upperBound {
            let byte = bytes[offset]
            offset += 1
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
            guard shift < 64 else { break }
        }
        throw .malformed("a number runs past the end")
    }
}
