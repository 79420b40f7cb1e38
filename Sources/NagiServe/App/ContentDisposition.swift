/// The `Content-Disposition` of a download: the file's name as the session or course gives it, in UTF-8
/// (`filename*`, RFC 6266 and 8187) for every browser of this decade, and as ASCII (`filename`, each other character
/// an underscore) for the rest.
enum ContentDisposition {
    /// `attachment; filename="…"; filename*=UTF-8''…` for `fileName`.
    static func attachment(fileName: String) -> String {
        let fallback = String(String.UnicodeScalarView(fileName.unicodeScalars.map { scalar in
            scalar.isASCII && scalar.value >= 0x20 && scalar.value != 0x7F && scalar != "\"" && scalar != "\\" ? scalar : "_"
        }))
        return "attachment; filename=\"\(fallback)\"; filename*=UTF-8''\(NagiServer.percentEncoded(fileName))"
    }
}
