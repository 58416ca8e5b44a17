import DAQCore

/// Which codes `barcode.gs1` reads as GS1 element strings.
public enum GS1Detection: String, ConfigEnum, Sendable {
    /// Codes a GS1 symbology marks (`]C1`, `]d2`, `]Q3`, …) or written `(01)…`; any other code
    /// only when it reads as valid element strings from end to end (known AIs, right lengths,
    /// check digits and dates, nothing left over). Most keyboard-wedge scanners send no
    /// symbology identifier, so this is what finds their GS1 codes.
    case auto
    /// Only codes a GS1 symbology marks, or written `(01)…`.
    case symbology
    /// Every code, reporting what is wrong in `gs1_error` (`assume_gs1: true`).
    case always
}
