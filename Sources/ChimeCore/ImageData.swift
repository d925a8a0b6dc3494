/// The spec's raw image, `(iiibiiay)`: RGB or RGBA rows as gdk-pixbuf lays them out.
public struct ImageData: Equatable, Sendable {
    public var width: Int32
    public var height: Int32
    public var rowstride: Int32
    public var hasAlpha: Bool
    public var bitsPerSample: Int32
    public var channels: Int32
    public var pixels: [UInt8]

    /// Large enough for any avatar or screenshot thumbnail; the same bound as image files.
    public static let maximumBytes = 10 * 1024 * 1024
    public static let maximumSide: Int32 = 4096

    public init(width: Int32, height: Int32, rowstride: Int32, hasAlpha: Bool,
                bitsPerSample: Int32, channels: Int32, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.rowstride = rowstride
        self.hasAlpha = hasAlpha
        self.bitsPerSample = bitsPerSample
        self.channels = channels
        self.pixels = pixels
    }

    /// Decodes and validates the hint value; the error says what is wrong with it.
    public static func decode(_ value: BusValue) -> Result<ImageData, HintProblem> {
        guard case .structure(let fields) = value.unwrapped, fields.count == 7,
              case .int32(let width) = fields[0], case .int32(let height) = fields[1],
              case .int32(let rowstride) = fields[2], case .bool(let hasAlpha) = fields[3],
              case .int32(let bits) = fields[4], case .int32(let channels) = fields[5],
              case .bytes(let pixels) = fields[6]
        else { return .failure(.init("must be (iiibiiay), got \(value.unwrapped.signature)")) }
        let image = ImageData(width: width, height: height, rowstride: rowstride, hasAlpha: hasAlpha,
                              bitsPerSample: bits, channels: channels, pixels: pixels)
        if let problem = image.problem { return .failure(problem) }
        return .success(image)
    }

    /// Why these fields do not describe the pixels, or nil when they do.
    var problem: HintProblem? {
        guard width > 0, height > 0, width <= Self.maximumSide, height <= Self.maximumSide else {
            return .init("size \(width)x\(height) is outside 1...\(Self.maximumSide)")
        }
        guard bitsPerSample == 8 else { return .init("bits_per_sample is \(bitsPerSample), not 8") }
        guard channels == (hasAlpha ? 4 : 3) else {
            return .init("\(channels) channels with has_alpha \(hasAlpha)")
        }
        // Int64 so that hostile values cannot overflow the arithmetic.
        let rowBytes = Int64(width) * Int64(channels)
        guard Int64(rowstride) >= rowBytes else {
            return .init("rowstride \(rowstride) is shorter than a row of \(rowBytes) bytes")
        }
        guard pixels.count <= Self.maximumBytes else {
            return .init("\(pixels.count) bytes is over the \(Self.maximumBytes)-byte limit")
        }
        // gdk-pixbuf may leave the last row unpadded, so both lengths are valid.
        let padded = Int64(rowstride) * Int64(height)
        let unpadded = Int64(rowstride) * Int64(height - 1) + rowBytes
        guard Int64(pixels.count) == padded || Int64(pixels.count) == unpadded else {
            return .init("\(pixels.count) bytes do not match \(height) rows of stride \(rowstride)")
        }
        return nil
    }

    public var busValue: BusValue {
        .structure([.int32(width), .int32(height), .int32(rowstride), .bool(hasAlpha),
                    .int32(bitsPerSample), .int32(channels), .bytes(pixels)])
    }
}

/// What was wrong with one hint; the hint is dropped and the notification still delivered.
public struct HintProblem: Error, Equatable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
