import CGLib
import ChimeCore

/// Checks an image named by `app_icon`, `image-path` or `<img src>`: a themed icon name,
/// or a local file that is regular, at most 10 MB and of a known image type. Files are
/// opened without blocking, so a FIFO or a device cannot stall the bus.
public enum ImageReference {
    public static let maximumFileBytes = 10 * 1024 * 1024

    /// The icon name or absolute file path to use, or why the reference is refused.
    public static func check(_ reference: String) -> Result<String, HintProblem> {
        if reference.hasPrefix("file://") {
            guard let path = LocalFile.path(fromURI: reference) else { return .failure(.init("\(reference) is not a valid file URI")) }
            return checkFile(path)
        }
        if reference.hasPrefix("/") { return checkFile(reference) }
        if reference.contains("/") { return .failure(.init("\(reference) is a relative path; only absolute paths and file:// URIs are read")) }
        guard isIconName(reference) else { return .failure(.init("\"\(reference)\" is neither a file nor an icon name")) }
        return .success(reference)
    }

    /// Icon names per the Icon Theme Specification: letters, digits, '-', '_', '.', '+'.
    static func isIconName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 255 && name.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7a)
                || byte == 0x2d || byte == 0x5f || byte == 0x2e || byte == 0x2b
        }
    }

    static func checkFile(_ path: String) -> Result<String, HintProblem> {
        LocalFile.check(path, maximumBytes: maximumFileBytes, kind: "image") { ImageType(magic: $0) != nil }
    }
}

/// Image formats presenters can load, recognised by their first bytes.
enum ImageType {
    case png, jpeg, gif, bmp, webp, ico, tiff, xpm, svg

    init?(magic: ArraySlice<UInt8>) {
        let bytes = Array(magic)
        func starts(_ prefix: [UInt8]) -> Bool { bytes.starts(with: prefix) }
        if starts([0x89, 0x50, 0x4E, 0x47]) { self = .png }
        else if starts([0xFF, 0xD8, 0xFF]) { self = .jpeg }
        else if starts(Array("GIF8".utf8)) { self = .gif }
        else if starts(Array("BM".utf8)) { self = .bmp }
        else if starts(Array("RIFF".utf8)), bytes.count >= 12, Array(bytes[8..<12]) == Array("WEBP".utf8) { self = .webp }
        else if starts([0, 0, 1, 0]) { self = .ico }
        else if starts(Array("II*\0".utf8)) || starts(Array("MM\0*".utf8)) { self = .tiff }
        else if starts(Array("/* XPM */".utf8)) { self = .xpm }
        else if String(decoding: bytes, as: UTF8.self).firstByteRange(of: "<svg") != nil { self = .svg }
        else { return nil }
    }
}
