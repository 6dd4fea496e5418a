import Foundation
import Testing

@testable import LiveConversion

/// `SectionedOutput.merge`: sections made in folders of their own put together as one run leaves them.
struct SectionedOutputTests {
    @Test func eachSectionsTimingFileComesWithItsAudio() throws {
        let root = NSTemporaryDirectory() + "epub2audio-merge-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: root) }
        var made: [MadeSection] = []
        for number in [1, 2] {
            let folder = root + "/s\(number)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let file = "00\(number) - Part.wav"
            let record = SectionRecord(number: number, title: "Part", status: .done, file: file, durationSeconds: 1)
            try Manifest(sections: [SectionRecord(number: 1, title: "Part"), SectionRecord(number: 2, title: "Part")])
                .with(record).write(toDirectory: folder)
            try Data([1, 2]).write(to: URL(fileURLWithPath: folder + "/" + file))
            // Section 2 was made by a version that wrote no timing file.
            if number == 1 {
                try SectionTimingFile.write(
                    SectionTiming(section: 1, sampleRate: 22_050, frames: 22_050, cues: []), directory: folder)
            }
            made.append(MadeSection(section: number, directory: folder, file: file))
        }
        let output = root + "/out"
        _ = try SectionedOutput.merge(made, planned: [1, 2], into: output)
        let names = try FileManager.default.contentsOfDirectory(atPath: output)
        #expect(names.contains(SectionTiming.fileName(section: 1)))
        #expect(!names.contains(SectionTiming.fileName(section: 2)))
        #expect(try SectionTimingFile.read(directory: output, section: 1)?.frames == 22_050)
    }
}

extension Manifest {
    /// This manifest with `record` in place of the section of its number.
    fileprivate func with(_ record: SectionRecord) -> Manifest {
        var copy = self
        copy.sections = sections.map { $0.number == record.number ? record : $0 }
        return copy
    }
}
