import Foundation
import PackagePlugin

/// Embeds the target's `openapi.yaml` in its code at build time (`OpenAPIDocument.bytes`), so that
/// the document `GET /openapi.yaml` serves is, byte for byte, the one the routes were generated
/// from: the binary needs no resource file beside it, and the two cannot drift.
@main struct EmbedOpenAPIDocument: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let target = target as? SwiftSourceModuleTarget,
            let document = target.sourceFiles.first(where: { $0.url.lastPathComponent == "openapi.yaml" })
        else { return [] }
        let output = context.pluginWorkDirectoryURL.appending(path: "OpenAPIDocument.swift")
        return [
            .buildCommand(
                displayName: "Embedding \(document.url.lastPathComponent) in \(target.name)",
                executable: try context.tool(named: "EmbedFile").url,
                arguments: [document.url.path, output.path, "OpenAPIDocument"],
                inputFiles: [document.url], outputFiles: [output])
        ]
    }
}
