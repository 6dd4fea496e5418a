import Foundation
import Testing

extension EndToEnd {
    @Suite("Voices by language name")
    struct VoicesByName {
        @Test("voices --language takes a language's name, English or its own; counts say '1 voice'")
        func voicesByLanguageName() async throws {
            let french = try await BinaryRunner.run(["voices", "--language", "français"])
            #expect(french.status == 0, "\(french.stderr)")
            let rows = french.stdout.split(separator: "\n").dropFirst().dropLast()
            #expect(!rows.isEmpty && rows.allSatisfy { $0.hasPrefix("fr") }, "\(french.stdout)")
            #expect(french.stdout.contains("\(rows.count) voices."), "\(french.stdout)")

            let german = try await BinaryRunner.run(["voices", "--language", "Deutsch"])
            #expect(german.status == 0, "\(german.stderr)")
            #expect(german.stdout.contains("German"), "\(german.stdout)")
            #expect(german.stdout.contains("\n1 voice. "), "one voice, in the singular: \(german.stdout)")
        }

        @Test("--voice french reads with the French default voice; 'frnch' suggests the French voices first")
        func voiceByLanguageName() async throws {
            let scratch = try Scratch("voice-by-name")
            let out = scratch.file("out").path
            let result = try await BinaryRunner.run(
                [Conversions.lighthouse, "--chapters", "13", "--voice", "french", "-o", out], timeout: 120)
            #expect(result.status == 0, "\(result.stderr)")
            let manifest = try #require(jsonObject(file: out + "/manifest.json"))
            let voice = (manifest["settings"] as? [String: Any])?["voice"] as? [String: Any]
            let french = try await BinaryRunner.run(["voices", "--json", "--language", "fr"])
            let list = try JSONSerialization.jsonObject(with: Data(french.stdout.utf8)) as? [[String: Any]]
            let identifiers = (list ?? []).compactMap { $0["identifier"] as? String }
            #expect(identifiers.contains(voice?["voice"] as? String ?? ""), "\(voice ?? [:]) among \(identifiers)")

            let typo = try await BinaryRunner.run(
                [Conversions.lighthouse, "--voice", "frnch", "-o", scratch.file("typo").path])
            #expect(typo.status == 6, "\(typo.stderr)")
            #expect(typo.stderr.contains("did you mean French"), "\(typo.stderr)")
        }
    }
}
