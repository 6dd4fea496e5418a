import Crypto
import Foundation

/// Bearer token secrets: 32 random bytes, hex, with a recognisable prefix; stored as their SHA-256.
/// A token's callback-signing secret is made the same way, with its own prefix, and stored as it is.
package enum TokenSecret {
    /// The prefix of a callback-signing secret (`Token.callbackSecret`).
    package static let callbackPrefix = "e2a_cb_"

    /// A new secret, `prefix` and 64 hex digits, from the system's random generator.
    package static func generate(prefix: String = "e2a_") -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }
        return prefix + bytes.map { String(format: "%02x", $0) }.joined()
    }

    /// What the store keeps of a secret.
    package static func sha256(_ secret: String) -> String {
        Crypto.SHA256.hash(data: Array(secret.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
