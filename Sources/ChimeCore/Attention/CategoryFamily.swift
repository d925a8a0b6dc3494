extension String {
    /// Whether this category is `family` or one of its subcategories: `im` and `im.received` are
    /// both in `im`. Compared byte for byte: it runs several times on every Notify, where
    /// `hasPrefix` cost a few hundred instructions each time.
    func isCategory(in family: StaticString) -> Bool {
        var category = self
        return category.withUTF8 { bytes in
            let count = family.utf8CodeUnitCount
            guard bytes.count == count || (bytes.count > count && bytes[count] == UInt8(ascii: ".")) else { return false }
            for offset in 0..<count where bytes[offset] != family.utf8Start[offset] { return false }
            return true
        }
    }
}
