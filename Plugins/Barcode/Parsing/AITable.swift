/// The GS1 Application Identifiers, in the notation of the GS1 Barcode Syntax Dictionary
/// (GS1 AISBL, Apache-2.0), which follows the GS1 General Specifications: `AI [*] components
/// [dlpkey=…] # TITLE`. `*` marks a predefined length (no FNC1 separator needed); each
/// component is `N`, `X` (CSET 82), `Y` (CSET 39) or `Z` (URI-safe base64) with a fixed
/// length (`N18`) or a maximum (`X..20`), `[…]` when optional, then checks (`csum`, `yymmd0`, …).
/// `dlpkey` marks the primary keys of GS1 Digital Link URIs.
enum AITable {
    static let text = """
        00 * N18,csum dlpkey # SSCC
        01 * N14,csum dlpkey # GTIN
        02 * N14,csum # CONTENT
        03 * N14,csum # MTO GTIN
        10 X..20 # BATCH/LOT
        11 * N6,yymmd0 # PROD DATE
        12 * N6,yymmd0 # DUE DATE
        13 * N6,yymmd0 # PACK DATE
        15 * N6,yymmd0 # BEST BEFORE or BEST BY
        16 * N6,yymmd0 # SELL BY
        17 * N6,yymmd0 # USE BY or EXPIRY
        20 * N2 # VARIANT
        21 X..20 # SERIAL
        22 X..20 # CPV
        235 X..28 # TPX
        240 X..30 # ADDITIONAL ID
        241 X..30 # CUST. PART No.
        242 N..6 # MTO VARIANT
        243 X..20 # PCN
        250 X..30 # SECONDARY SERIAL
        251 X..30 # REF. TO SOURCE
        253 N13,csum [X..17] dlpkey # GDTI
        254 X..20 # GLN EXTENSION COMPONENT
        255 N13,csum [N..12] dlpkey # GCN
        30 N..8 # VAR. COUNT
        3100-3105 * N6 # NET WEIGHT (kg)
        3110-3115 * N6 # LENGTH (m)
        3120-3125 * N6 # WIDTH (m)
        3130-3135 * N6 # HEIGHT (m)
        3140-3145 * N6 # AREA (m²)
        3150-3155 * N6 # NET VOLUME (l)
        3160-3165 * N6 # NET VOLUME (m³)
        3200-3205 * N6 # NET WEIGHT (lb)
        3210-3215 * N6 # LENGTH (in)
        3220-3225 * N6 # LENGTH (ft)
        3230-3235 * N6 # LENGTH (yd)
        3240-3245 * N6 # WIDTH (in)
        3250-3255 * N6 # WIDTH (ft)
        3260-3265 * N6 # WIDTH (yd)
        3270-3275 * N6 # HEIGHT (in)
        3280-3285 * N6 # HEIGHT (ft)
        3290-3295 * N6 # HEIGHT (yd)
        3300-3305 * N6 # GROSS WEIGHT (kg)
        3310-3315 * N6 # LENGTH (m), log
        3320-3325 * N6 # WIDTH (m), log
        3330-3335 * N6 # HEIGHT (m), log
        3340-3345 * N6 # AREA (m²), log
        3350-3355 * N6 # VOLUME (l), log
        3360-3365 * N6 # VOLUME (m³), log
        3370-3375 * N6 # KG PER m²
        3400-3405 * N6 # GROSS WEIGHT (lb)
        3410-3415 * N6 # LENGTH (in), log
        3420-3425 * N6 # LENGTH (ft), log
        3430-3435 * N6 # LENGTH (yd), log
        3440-3445 * N6 # WIDTH (in), log
        3450-3455 * N6 # WIDTH (ft), log
        3460-3465 * N6 # WIDTH (yd), log
        3470-3475 * N6 # HEIGHT (in), log
        3480-3485 * N6 # HEIGHT (ft), log
        3490-3495 * N6 # HEIGHT (yd), log
        3500-3505 * N6 # AREA (in²)
        3510-3515 * N6 # AREA (ft²)
        3520-3525 * N6 # AREA (yd²)
        3530-3535 * N6 # AREA (in²), log
        3540-3545 * N6 # AREA (ft²), log
        3550-3555 * N6 # AREA (yd²), log
        3560-3565 * N6 # NET WEIGHT (t oz)
        3570-3575 * N6 # NET VOLUME (oz)
        3600-3605 * N6 # NET VOLUME (qt)
        3610-3615 * N6 # NET VOLUME (gal.)
        3620-3625 * N6 # VOLUME (qt), log
        3630-3635 * N6 # VOLUME (gal.), log
        3640-3645 * N6 # VOLUME (in³)
        3650-3655 * N6 # VOLUME (ft³)
        3660-3665 * N6 # VOLUME (yd³)
        3670-3675 * N6 # VOLUME (in³), log
        3680-3685 * N6 # VOLUME (ft³), log
        3690-3695 * N6 # VOLUME (yd³), log
        37 N..8 # COUNT
        3900-3909 N..15 # AMOUNT
        3910-3919 N3,iso4217 N..15 # AMOUNT
        3920-3929 N..15 # PRICE
        3930-3939 N3,iso4217 N..15 # PRICE
        3940-3943 N4 # PRCNT OFF
        3950-3955 N6 # PRICE/UoM
        400 X..30 # ORDER NUMBER
        401 X..30 dlpkey # GINC
        402 N17,csum dlpkey # GSIN
        403 X..30 # ROUTE
        410 * N13,csum # SHIP TO LOC
        411 * N13,csum # BILL TO
        412 * N13,csum # PURCHASE FROM
        413 * N13,csum # SHIP FOR LOC
        414 * N13,csum dlpkey # LOC No.
        415 * N13,csum dlpkey # PAY TO
        416 * N13,csum # PROD/SERV LOC
        417 * N13,csum dlpkey # PARTY
        420 X..20 # SHIP TO POST
        421 N3,iso3166 X..9 # SHIP TO POST
        422 N3,iso3166 # ORIGIN
        423 N3,iso3166 [N3],iso3166 [N3],iso3166 [N3],iso3166 [N3],iso3166 # COUNTRY - INITIAL PROCESS
        424 N3,iso3166 # COUNTRY - PROCESS
        425 N3,iso3166 [N3],iso3166 [N3],iso3166 [N3],iso3166 [N3],iso3166 # COUNTRY - DISASSEMBLY
        426 N3,iso3166 # COUNTRY - FULL PROCESS
        427 X..3 # ORIGIN SUBDIVISION
        4300 X..35,pcenc # SHIP TO COMP
        4301 X..35,pcenc # SHIP TO NAME
        4302 X..70,pcenc # SHIP TO ADD1
        4303 X..70,pcenc # SHIP TO ADD2
        4304 X..70,pcenc # SHIP TO SUB
        4305 X..70,pcenc # SHIP TO LOC
        4306 X..70,pcenc # SHIP TO REG
        4307 X2,iso3166alpha2 # SHIP TO COUNTRY
        4308 X..30 # SHIP TO PHONE
        4309 N10,latitude N10,longitude # SHIP TO GEO
        4310 X..35,pcenc # RTN TO COMP
        4311 X..35,pcenc # RTN TO NAME
        4312 X..70,pcenc # RTN TO ADD1
        4313 X..70,pcenc # RTN TO ADD2
        4314 X..70,pcenc # RTN TO SUB
        4315 X..70,pcenc # RTN TO LOC
        4316 X..70,pcenc # RTN TO REG
        4317 X2,iso3166alpha2 # RTN TO COUNTRY
        4318 X..20 # RTN TO POST
        4319 X..30 # RTN TO PHONE
        4320 X..35,pcenc # SRV DESCRIPTION
        4321 N1,yesno # DANGEROUS GOODS
        4322 N1,yesno # AUTH TO LEAVE
        4323 N1,yesno # SIG REQUIRED
        4324 N6,yymmd0 N4,hhmi # NOT BEF DEL DT
        4325 N6,yymmd0 N4,hhmi # NOT AFT DEL DT
        4326 N6,yymmdd # REL DATE
        4330 N6 [X1],hyphen # MAX TEMP F.
        4331 N6 [X1],hyphen # MAX TEMP C.
        4332 N6 [X1],hyphen # MIN TEMP F.
        4333 N6 [X1],hyphen # MIN TEMP C.
        7001 N13 # NSN
        7002 X..30 # MEAT CUT
        7003 N6,yymmdd N4,hhmi # EXPIRY TIME
        7004 N..4 # ACTIVE POTENCY
        7005 X..12 # CATCH AREA
        7006 N6,yymmdd # FIRST FREEZE DATE
        7007 N6,yymmdd [N6],yymmdd # HARVEST DATE
        7008 X..3 # AQUATIC SPECIES
        7009 X..10 # FISHING GEAR TYPE
        7010 X..2 # PROD METHOD
        7011 N6,yymmdd [N4],hhmi # TEST BY DATE
        7020 X..20 # REFURB LOT
        7021 X..20 # FUNC STAT
        7022 X..20 # REV STAT
        7023 X..30 # GIAI - ASSEMBLY
        7030-7039 N3,iso3166999 X..27 # PROCESSOR
        7040 N1 X1 X1 X1,importeridx # UIC+EXT
        7041 X..4,packagetype # UFRGT UNIT TYPE
        710 X..20 # NHRN PZN
        711 X..20 # NHRN CIP
        712 X..20 # NHRN CN
        713 X..20 # NHRN DRN
        714 X..20 # NHRN AIM
        715 X..20 # NHRN NDC
        716 X..20 # NHRN AIC
        7230-7239 X2 X..28 # CERT
        7240 X..20 # PROTOCOL
        7241 N2,mediatype # AIDC MEDIA TYPE
        7242 X..25 # VCN
        7250 N8,yyyymmdd # DOB
        7251 N8,yyyymmdd N4,hhmi # DOB TIME
        7252 N1,iso5218 # BIO SEX
        7253 X..40,pcenc # FAMILY NAME
        7254 X..40,pcenc # GIVEN NAME
        7255 X..10 # SUFFIX
        7256 X..90,pcenc # FULL NAME
        7257 X..70,pcenc # PERSON ADDR
        7258 X3,posinseqslash # BIRTH SEQUENCE
        7259 X..40,pcenc # BABY
        8001 N4,nonzero N5,nonzero N3,nonzero N1,winding N1 # DIMENSIONS
        8002 X..20 # CMT No.
        8003 N1,zero N13,csum [X..16] dlpkey # GRAI
        8004 X..30 dlpkey # GIAI
        8005 N6 # PRICE PER UNIT
        8006 N14,csum N4,pieceoftotal dlpkey # ITIP
        8007 X..34,iban # IBAN
        8008 N6,yymmdd N2,hh [N2],mi [N2],ss # PROD TIME
        8009 X..50 # OPTSEN
        8010 Y..30 dlpkey # CPID
        8011 N..12,nozeroprefix # CPID SERIAL
        8012 X..20 # VERSION
        8013 X..25,csumalpha dlpkey # GMN
        8014 X..25,csumalpha,hasnondigit # MUDI
        8017 N18,csum dlpkey # GSRN - PROVIDER
        8018 N18,csum dlpkey # GSRN - RECIPIENT
        8019 N..10 # SRIN
        8020 X..25 # REF No.
        8026 N14,csum N4,pieceoftotal # ITIP CONTENT
        8030 Z..90 # DIGSIG
        8110 X..70,couponcode # COUPON
        8111 N4 # POINTS
        8112 X..70,couponposoffer # POSITIVE OFFER COUPON
        8200 X..70 # PRODUCT URL
        90 X..30 # INTERNAL
        91-99 X..90 # INTERNAL
        """

    /// Every AI, ranges expanded: over 500 entries.
    static let entries: [String: AIEntry] = {
        var table: [String: AIEntry] = [:]
        for line in text.split(separator: "\n") {
            guard let entry = AIEntry.parse(line) else { continue }
            for ai in entry.ais { table[ai] = entry.specialized(to: ai) }
        }
        return table
    }()

    /// The AI at the start of `bytes[from...]`: AIs are prefix-free, so at most one of the 2, 3
    /// and 4 digit prefixes is in the table.
    static func lookup(_ bytes: [UInt8], at from: Int) -> AIEntry? {
        for n in 2...4 where from + n <= bytes.count {
            if let e = entries[String(decoding: bytes[from..<(from + n)], as: UTF8.self)] { return e }
        }
        return nil
    }
}
