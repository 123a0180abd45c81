"""Capturing or uploading a picture: "register each transaction by taking an invoice photo",
"upload a photo of the receipt", "scan the barcode picture".

The generated app stores typed values (a picture it shows is a URL field, media_fields.py); it
has no file upload, no camera and no reading of an image. Before this pass "taking a invoice
photo" made `photo` a record type (the object of "take"), and the clause came out mapped to a
photo table — a claim with no capture behind it. The verb and the picture words are now consumed
(no record type) and the clause is blocked with the reason.
"""

from __future__ import annotations

from harness.offline.spec import lexicon as lx
from harness.offline.spec.pass_helpers import use as _use
from harness.offline.spec.tokens import Tok

REASON = ("taking or uploading a picture is not built: the offline app stores typed values, with no "
          "camera, file upload or reading of an image")
_VERBS = lx._words("""
    upload uploads uploaded uploading attach attaches attached attaching scan scans scanned scanning
    capture captures captured capturing take takes taking took snap snaps snapping photograph
    photographs photographing
""")
_MEDIA = lx._words("photo photos picture pictures image images snapshot snapshots scan scans selfie selfies")
_REACH = 4


def find_picture_capture(toks: list[Tok], p) -> None:
    """Consume "take/upload/scan <a ...> photo" and block its clause."""
    for i, t in enumerate(toks):
        if t.used or t.w not in _VERBS:
            continue
        end = next((k for k in range(i + 1, min(len(toks), i + 1 + _REACH))
                    if toks[k].clause == t.clause and toks[k].w in _MEDIA), None)
        if end is None or any(toks[k].w in (".", ",", ";", "and", "or") for k in range(i + 1, end)):
            continue
        for k in range(i, end + 1):
            if not toks[k].used:
                _use(toks[k], "context")
        if (t.clause, REASON) not in p.blocked:
            p.blocked.append((t.clause, REASON))
