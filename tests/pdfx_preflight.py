"""A preflight of our own for PDF/X-1a:2003 (ISO 15930-4), read from the file as a RIP would:
each check below is one item of the standard's list of what a conforming file must and must
not hold. Shared by tests/test_shops.py and tools/print_sweep.py."""

from __future__ import annotations

from pypdf.generic import ContentStream, NameObject

PROCESS_SPACES = ("/DeviceCMYK", "/DeviceGray")
EPS = 0.01


def _box(page, name):
    value = page.get(name)
    return None if value is None else [float(v) for v in value]


def _inside(inner, outer) -> bool:
    return inner[0] >= outer[0] - EPS and inner[1] >= outer[1] - EPS and inner[2] <= outer[2] + EPS \
        and inner[3] <= outer[3] + EPS


def preflight_pdfx(reader) -> list[str]:
    """Every way the file breaks the PDF/X-1a:2003 list; an empty list is a conforming file."""
    problems = []
    # the file: version at most 1.4, not encrypted, an /ID in the trailer
    if reader.pdf_header > "%PDF-1.4":
        problems.append(f"PDF version {reader.pdf_header[5:]} is above 1.4")
    if "/Encrypt" in reader.trailer:
        problems.append("the file is encrypted")
    if "/ID" not in reader.trailer:
        problems.append("no /ID in the trailer")
    # the document information dictionary
    info = reader.trailer["/Info"].get_object() if "/Info" in reader.trailer else {}
    if info.get("/GTS_PDFXVersion") != "PDF/X-1:2003":
        problems.append(f"GTS_PDFXVersion is {info.get('/GTS_PDFXVersion')!r}, not 'PDF/X-1:2003'")
    if info.get("/GTS_PDFXConformance") != "PDF/X-1a:2003":
        problems.append(f"GTS_PDFXConformance is {info.get('/GTS_PDFXConformance')!r}, not 'PDF/X-1a:2003'")
    trapped = info.get("/Trapped")
    if not isinstance(trapped, NameObject) or trapped not in ("/True", "/False"):
        problems.append(f"Trapped is {trapped!r}, not the name /True or /False")
    for key in ("/Title", "/CreationDate", "/ModDate"):
        if not info.get(key):
            problems.append(f"no {key} in the document information")
    # one output intent of subtype GTS_PDFX, naming its condition; a condition not in the ICC
    # registry would need its profile embedded
    root = reader.trailer["/Root"].get_object()
    intents = [i.get_object() for i in root.get("/OutputIntents") or []]
    pdfx = [i for i in intents if i.get("/S") == "/GTS_PDFX"]
    if len(pdfx) != 1:
        problems.append(f"{len(pdfx)} GTS_PDFX output intents, not one")
    for intent in pdfx:
        if not intent.get("/OutputConditionIdentifier"):
            problems.append("the output intent names no OutputConditionIdentifier")
        if "/DestOutputProfile" not in intent and not intent.get("/RegistryName"):
            problems.append("the output intent has neither an embedded profile nor a registry name")
    # nothing that runs or plays
    for key in ("/OpenAction", "/AA", "/Names"):
        if key in root and (key != "/Names" or "/JavaScript" in root[key].get_object()
                            or "/EmbeddedFiles" in root[key].get_object()):
            problems.append(f"the catalogue has {key}")
    seen: set[int] = set()

    def walk(stream, resources, where):
        resources = resources.get_object() if resources is not None else {}
        for operands, operator in ContentStream(stream, reader).operations:
            if operator in (b"rg", b"RG"):
                problems.append(f"{where}: RGB colour {operator.decode()}")
            if operator in (b"cs", b"CS") and operands[0] not in PROCESS_SPACES:
                problems.append(f"{where}: colour space {operands[0]}")
            if operator == b"INLINE IMAGE":
                space = operands["settings"].get("/CS", operands["settings"].get("/ColorSpace"))
                if space not in ("/CMYK", "/DeviceCMYK", "/G", "/DeviceGray"):
                    problems.append(f"{where}: inline image in {space}")
            if operator == b"PS":
                problems.append(f"{where}: PostScript in the content")
        for name, ref in (resources.get("/ColorSpace") or {}).items():
            problems.append(f"{where}: named colour space {name} ({ref.get_object()})")
        for name, ref in (resources.get("/Shading") or {}).items():
            if ref.get_object().get("/ColorSpace") not in PROCESS_SPACES:
                problems.append(f"{where}: shading {name} in {ref.get_object().get('/ColorSpace')}")
        for ref in (resources.get("/ExtGState") or {}).values():
            state = ref.get_object()
            if float(state.get("/ca", 1)) < 1 or float(state.get("/CA", 1)) < 1 or \
                    state.get("/SMask", "/None") != "/None" or state.get("/BM", "/Normal") not in ("/Normal", "/Compatible"):
                problems.append(f"{where}: transparency in a graphics state")
            if "/TR" in state or ("/TR2" in state and state["/TR2"] != "/Default") or "/HTP" in state:
                problems.append(f"{where}: a transfer function or halftone phase")
        for name, ref in (resources.get("/XObject") or {}).items():
            xobject = ref.get_object()
            key = getattr(ref, "idnum", None) or id(xobject)
            if key in seen:
                continue
            seen.add(key)
            if xobject.get("/Subtype") == "/Image":
                if xobject.get("/ColorSpace") not in PROCESS_SPACES and not xobject.get("/ImageMask"):
                    problems.append(f"{where}: image {name} in {xobject.get('/ColorSpace')}")
                if "/SMask" in xobject:
                    problems.append(f"{where}: image {name} with a soft mask")
                if "/OPI" in xobject or "/Alternates" in xobject:
                    problems.append(f"{where}: image {name} with OPI or alternates")
            elif xobject.get("/Subtype") == "/PS":
                problems.append(f"{where}: PostScript XObject {name}")
            else:
                if (xobject.get("/Group") or {}).get("/S") == "/Transparency":
                    problems.append(f"{where}: transparency group in {name}")
                if "/OPI" in xobject:
                    problems.append(f"{where}: form {name} with OPI")
                walk(xobject, xobject.get("/Resources"), f"{where} form {name}")
        for ref in (resources.get("/Font") or {}).values():
            font = ref.get_object()
            if not _embedded(font):
                problems.append(f"{where}: font {font.get('/BaseFont')} not embedded")

    for number, page in enumerate(reader.pages, start=1):
        media, bleed, trim, art = (_box(page, n) for n in ("/MediaBox", "/BleedBox", "/TrimBox", "/ArtBox"))
        if trim is None and art is None:
            problems.append(f"page {number}: neither TrimBox nor ArtBox")
        if trim is not None and art is not None:
            problems.append(f"page {number}: both TrimBox and ArtBox")
        if bleed is not None and not _inside(bleed, media):
            problems.append(f"page {number}: BleedBox outside the MediaBox")
        for name, box in (("TrimBox", trim), ("ArtBox", art)):
            if box is not None and not _inside(box, bleed or media):
                problems.append(f"page {number}: {name} outside the BleedBox")
        if (page.get("/Group") or {}).get("/S") == "/Transparency":
            problems.append(f"page {number}: transparency group")
        for annotation in page.get("/Annots") or []:
            subtype = annotation.get_object().get("/Subtype")
            if subtype not in ("/TrapNet", "/PrinterMark"):
                problems.append(f"page {number}: a {subtype} annotation")
        walk(page.get_contents(), page.get("/Resources"), f"page {number}")
    return problems


def _embedded(font) -> bool:
    if font.get("/Subtype") == "/Type3":
        return True
    descriptor = font.get("/FontDescriptor")
    if font.get("/Subtype") == "/Type0":
        descriptor = font["/DescendantFonts"][0].get_object().get("/FontDescriptor")
    descriptor = descriptor.get_object() if descriptor is not None else {}
    return any(key in descriptor for key in ("/FontFile", "/FontFile2", "/FontFile3"))
