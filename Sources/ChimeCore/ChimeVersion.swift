public enum ChimeVersion {
    public static let string = "0.1.0"
}
