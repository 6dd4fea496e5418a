import Testing

@testable import NeuralEngine

/// A minimal `ModelProto`: ir_version 8, a producer name, and a graph holding one node with a name.
func minimalModel(graphPayload: [UInt8]? = nil) -> [UInt8] {
    var node: [UInt8] = []
    ONNXModel.appendLengthDelimited(3, Array("node0".utf8), to: &node)  // NodeProto.name
    var graph: [UInt8] = []
    ONNXModel.appendLengthDelimited(1, node, to: &graph)  // GraphProto.node
    ONNXModel.appendLengthDelimited(2, Array("g".utf8), to: &graph)  // GraphProto.name
    var model: [UInt8] = [0x08, 0x08]  // ir_version = 8
    ONNXModel.appendLengthDelimited(2, Array("test".utf8), to: &model)  // producer_name
    ONNXModel.appendLengthDelimited(7, graphPayload ?? graph, to: &model)
    return model
}

private func read(_ bytes: [UInt8]) throws -> ONNXModel {
    try bytes.withUnsafeBytes { try ONNXModel(bytes: $0) }
}

@Suite struct ONNXModelTests {
    @Test func aModelWithoutMetadataHasNone() throws {
        let model = try read(minimalModel())
        #expect(model.metadata.isEmpty)
        #expect(model.graphBytes > 0)
    }

    @Test func appendedMetadataIsReadBackInOrder() throws {
        let entries = [("comment", "piper"), ("sample_rate", "22050"), ("language", "English"), ("voice", "en-us")]
        let bytes = minimalModel() + ONNXModel.metadataBytes(entries)
        let model = try read(bytes)
        #expect(model.metadata.map(\.key) == entries.map(\.0))
        #expect(model.metadataByKey["sample_rate"] == "22050")
        #expect(model.metadataByKey["voice"] == "en-us")
    }

    @Test func metadataWrittenBeforeTheGraphIsReadToo() throws {
        var bytes: [UInt8] = [0x08, 0x08]
        bytes += ONNXModel.metadataBytes([("comment", "piper")])
        bytes += minimalModel().dropFirst(2)
        #expect(try read(bytes).metadataByKey == ["comment": "piper"])
    }

    @Test func aRepeatedKeyTakesItsLastValue() throws {
        let bytes = minimalModel() + ONNXModel.metadataBytes([("n_speakers", "1"), ("n_speakers", "4")])
        #expect(try read(bytes).metadataByKey["n_speakers"] == "4")
    }

    @Test func nonASCIIValuesRoundTrip() throws {
        let bytes = minimalModel() + ONNXModel.metadataBytes([("language", "Français ɛ̃")])
        #expect(try read(bytes).metadataByKey["language"] == "Français ɛ̃")
    }

    @Test func longValuesUseMultiByteLengths() throws {
        let long = String(repeating: "x", count: 70_000)
        let bytes = minimalModel() + ONNXModel.metadataBytes([("punctuation", long)])
        #expect(try read(bytes).metadataByKey["punctuation"]?.count == 70_000)
    }

    @Test(arguments: [1, 5, 20])
    func aTruncatedModelIsMalformed(cut: Int) throws {
        let bytes = minimalModel() + ONNXModel.metadataBytes([("comment", "piper")])
        #expect(throws: ONNXModelError.self) { try read(Array(bytes.dropLast(cut))) }
    }

    @Test func aGraphWhoseInsideIsCutIsMalformed() throws {
        // The outer length says 9 bytes; inside, a field claims 50.
        let inner: [UInt8] = [0x0A, 50, 1, 2, 3, 4, 5, 6, 7]
        #expect(throws: ONNXModelError.self) { try read(minimalModel(graphPayload: inner)) }
    }

    @Test func textIsNotAModel() throws {
        #expect(throws: ONNXModelError.self) { try read(Array("not a model at all\n".utf8)) }
    }

    @Test func aMessageWithoutAGraphIsNotAModel() throws {
        #expect(throws: ONNXModelError.noGraph) { try read([0x08, 0x08]) }
        #expect(throws: ONNXModelError.noGraph) { try read([]) }
    }

    @Test func anUnknownWireTypeIsMalformed() throws {
        #expect(throws: ONNXModelError.self) { try read(minimalModel() + [0x0F, 0x00]) }
    }
}
