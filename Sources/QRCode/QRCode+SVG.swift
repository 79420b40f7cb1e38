extension QRCode {
    /// The code as an SVG document: one path of unit squares for the dark modules on a white square that holds
    /// the quiet zone, `pixelsPerModule` CSS pixels to a module at its natural size, sharp when scaled.
    public func svg(pixelsPerModule: Int = 8) -> String {
        let side = width + 2 * Self.quietZoneWidth
        var path = ""
        for row in 0..<width {
            var column = 0
            while column < width {
                guard isDark(column: column, row: row) else {
                    column += 1
                    continue
                }
                // A run of dark modules in a row is one rectangle: a shorter path than a square each.
                var runEnd = column + 1
                while runEnd < width, isDark(column: runEnd, row: row) { runEnd += 1 }
                path += "M\(column + Self.quietZoneWidth) \(row + Self.quietZoneWidth)h\(runEnd - column)v1h-\(runEnd - column)z"
                column = runEnd
            }
        }
        let pixels = side * pixelsPerModule
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(pixels)" height="\(pixels)" viewBox="0 0 \(side) \(side)" \
        shape-rendering="crispEdges"><rect width="\(side)" height="\(side)" fill="#fff"/><path fill="#000" d="\(path)"/></svg>

        """
    }
}
