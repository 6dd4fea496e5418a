import Foundation
import OpenAPIRuntime
import Yams

/// The OpenAPI document the server serves (`GET /openapi.yaml`, embedded at build time from the
/// file the routes are generated from) and its web page (`GET /docs`): rendered here, once, into
/// one self-contained HTML page that loads nothing (no script, no style sheet, no font from a CDN).
enum APIDocumentation {
    /// openapi.yaml as it was when the server was built.
    static var yaml: Data { OpenAPIDocument.bytes }

    /// The page, rendered on first use.
    static let html: String = render(yaml: String(decoding: OpenAPIDocument.bytes, as: UTF8.self))

    /// HTTP methods in the order a reader expects them.
    private static let methods = ["get", "head", "put", "post", "patch", "delete", "options"]

    /// The page of an OpenAPI document: its description, each path's operations (summary,
    /// parameters, body, responses) and the schemas. A document that cannot be read gives a page
    /// that says so and links to the document.
    static func render(yaml: String) -> String {
        guard let root = try? Yams.compose(yaml: yaml), root.mapping != nil else {
            return page(
                title: "API reference",
                body: "<p>The OpenAPI document cannot be read here; see <a href=\"openapi.yaml\">openapi.yaml</a>.</p>")
        }
        let info = root["info"]
        let title = (info?["title"]?.string ?? "API") + " " + (info?["version"]?.string ?? "")
        var body = "<h1>\(escape(title))</h1>\n"
        body += paragraph(info?["description"]?.string)
        body += "<p>The document itself: <a href=\"openapi.yaml\">openapi.yaml</a>.</p>\n"
        let operations = Self.operations(root)
        body += "<h2>Operations</h2>\n<ul class=\"toc\">\n"
        for operation in operations {
            body += "<li><a href=\"#\(escape(operation.id))\"><b>\(operation.method.uppercased())</b> "
            body += "<code>\(escape(operation.path))</code></a> "
            body += inline(operation.node["summary"]?.string ?? "") + "</li>\n"
        }
        body += "</ul>\n"
        for operation in operations { body += render(operation, root: root) }
        body += renderSchemas(root)
        return page(title: title, body: body)
    }

    private struct Operation {
        var path: String
        var method: String
        var id: String
        var node: Node
        /// The parameters the path declares for all its operations.
        var shared: [Node]
    }

    /// Every operation, in the document's order.
    private static func operations(_ root: Node) -> [Operation] {
        guard let paths = root["paths"]?.mapping else { return [] }
        var found: [Operation] = []
        for (pathNode, item) in paths {
            guard let path = pathNode.string, let item = item.mapping else { continue }
            let shared = item["parameters"]?.sequence.map(Array.init) ?? []
            for (key, node) in item {
                guard let method = key.string, methods.contains(method) else { continue }
                let id = node["operationId"]?.string ?? method + path
                found.append(Operation(path: path, method: method, id: id, node: node, shared: shared))
            }
        }
        return found
    }

    private static func render(_ operation: Operation, root: Node) -> String {
        let node = operation.node
        var html = "<section id=\"\(escape(operation.id))\">\n"
        html += "<h3><span class=\"method\">\(operation.method.uppercased())</span> "
        html += "<code>\(escape(operation.path))</code></h3>\n"
        html += paragraph(node["summary"]?.string) + paragraph(node["description"]?.string)
        if node["security"]?.sequence?.isEmpty == true { html += "<p><i>No token needed.</i></p>\n" }
        let parameters = (operation.shared + (node["parameters"]?.sequence.map(Array.init) ?? [])).map {
            resolve($0, root: root)
        }
        if !parameters.isEmpty {
            html += "<table><tr><th>parameter</th><th>in</th><th>type</th><th></th></tr>\n"
            for parameter in parameters {
                let required = parameter["required"]?.bool == true ? "required" : "optional"
                html += "<tr><td><code>\(escape(parameter["name"]?.string ?? ""))</code></td>"
                html += "<td>\(escape(parameter["in"]?.string ?? ""))</td>"
                html += "<td>\(type(parameter["schema"])) (\(required))</td>"
                html += "<td>\(inline(parameter["description"]?.string ?? ""))</td></tr>\n"
            }
            html += "</table>\n"
        }
        if let content = node["requestBody"]?["content"]?.mapping {
            html += "<p><b>Body</b>: " + contentTypes(content) + "</p>\n"
        }
        if let responses = node["responses"]?.mapping {
            html += "<table><tr><th>status</th><th>meaning</th><th>body</th></tr>\n"
            for (status, response) in responses.sorted(by: { ($0.key.string ?? "") < ($1.key.string ?? "") }) {
                let response = resolve(response, root: root)
                html += "<tr><td>\(escape(status.string ?? ""))</td>"
                html += "<td>\(inline(response["description"]?.string ?? ""))</td>"
                html += "<td>\(response["content"]?.mapping.map(contentTypes) ?? "")</td></tr>\n"
            }
            html += "</table>\n"
        }
        return html + "</section>\n"
    }

    private static func renderSchemas(_ root: Node) -> String {
        guard let schemas = root["components"]?["schemas"]?.mapping else { return "" }
        var html = "<h2>Schemas</h2>\n"
        for (nameNode, schema) in schemas {
            let name = nameNode.string ?? ""
            html += "<section id=\"schema-\(escape(name))\">\n<h3>\(escape(name))</h3>\n"
            html += paragraph(schema["description"]?.string)
            guard let properties = schema["properties"]?.mapping else {
                html += "<p>\(type(schema))</p>\n</section>\n"
                continue
            }
            let required = Set(schema["required"]?.sequence?.compactMap(\.string) ?? [])
            html += "<table><tr><th>field</th><th>type</th><th></th></tr>\n"
            for (field, property) in properties {
                let fieldName = field.string ?? ""
                html += "<tr><td><code>\(escape(fieldName))</code>\(required.contains(fieldName) ? " *" : "")</td>"
                html += "<td>\(type(property))</td><td>\(inline(property["description"]?.string ?? ""))</td></tr>\n"
            }
            html += "</table>\n</section>\n"
        }
        return html + "<p>* required</p>\n"
    }

    /// The node a `$ref` names (`#/components/...`), or the node itself.
    private static func resolve(_ node: Node, root: Node) -> Node {
        guard let reference = node["$ref"]?.string, reference.hasPrefix("#/") else { return node }
        var target: Node? = root
        for part in reference.dropFirst(2).split(separator: "/") { target = target?[String(part)] }
        return target ?? node
    }

    /// A schema's type in a few words: a link to a named schema, `array of …`, an enumeration's values.
    private static func type(_ schema: Node?) -> String {
        guard let schema else { return "" }
        if let reference = schema["$ref"]?.string {
            let name = escape(String(reference.split(separator: "/").last ?? ""))
            return "<a href=\"#schema-\(name)\">\(name)</a>"
        }
        var text = escape(schema["type"]?.string ?? "object")
        if text == "array" { return "array of " + type(schema["items"]) }
        if let format = schema["format"]?.string { text += " (\(escape(format)))" }
        if let values = schema["enum"]?.sequence {
            text += ": " + values.compactMap(\.string).map { "<code>\(escape($0))</code>" }.joined(separator: " | ")
        }
        if let pattern = schema["pattern"]?.string { text += " <code>\(escape(pattern))</code>" }
        return text
    }

    private static func contentTypes(_ content: Node.Mapping) -> String {
        content.map { key, value in
            let schema = value["schema"]
            let name = "<code>\(escape(key.string ?? ""))</code>"
            return schema?["$ref"] != nil ? name + " " + type(schema) : name
        }.joined(separator: ", ")
    }

    private static func paragraph(_ text: String?) -> String {
        guard let text, !text.isEmpty else { return "" }
        return "<p>\(inline(text))</p>\n"
    }

    /// Escaped text with `code` spans as `<code>`.
    static func inline(_ text: String) -> String {
        let parts = escape(text.trimmingCharacters(in: .whitespacesAndNewlines)).split(
            separator: "`", omittingEmptySubsequences: false)
        guard parts.count >= 3 else { return parts.joined(separator: "`") }
        return parts.enumerated().map { index, part in index % 2 == 1 ? "<code>\(part)</code>" : String(part) }
            .joined()
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    private static func page(title: String, body: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #222; }
        code { font: 13px ui-monospace, monospace; background: #f3f3f3; padding: 0 .2em; }
        section { border-top: 1px solid #ddd; margin-top: 1.5rem; }
        .method { font: bold 13px ui-monospace, monospace; background: #225; color: #fff; padding: .1em .4em; }
        table { border-collapse: collapse; margin: .5rem 0; width: 100%; }
        th, td { border: 1px solid #ddd; padding: .2rem .4rem; text-align: left; vertical-align: top; }
        ul.toc { list-style: none; padding: 0; }
        </style></head><body>
        \(body)</body></html>

        """
    }
}

// The handlers of the two routes.
extension ServiceAPI {
    func openAPIDocument(_ input: Operations.openAPIDocument.Input) async throws
        -> Operations.openAPIDocument.Output
    {
        .ok(.init(body: .yaml(HTTPBody(APIDocumentation.yaml))))
    }

    func apiDocs(_ input: Operations.apiDocs.Input) async throws -> Operations.apiDocs.Output {
        .ok(.init(body: .html(HTTPBody(APIDocumentation.html))))
    }
}
