# SPDX-License-Identifier: BSD-2-Clause
"""A copy of the image whose ESP's presets.cfg is replaced in place.

Run by tests/image/test_uefi_presets.sh from the top of the tree.  Arguments: IMAGE OUT_IMAGE PRESETS_CFG.
"""
import sys
img, out, cfg = sys.argv[1], sys.argv[2], sys.argv[3]
data, text = open(img, 'rb').read(), open(cfg, 'rb').read()
if data.count(text) != 1:
    sys.exit('presets.cfg found %d times in the image, not once' % data.count(text))
lines = text.split(b'\n')
for i, l in enumerate(lines):
    if l.startswith(b'quick:'):
        # other words, the same length: "samples=10000" becomes "samples=5000 "
        new = l.replace(b'samples=10000', b'samples=5000 ')
        assert new != l and len(new) == len(l)
        lines[i] = new
    elif l.startswith(b'verbose:'):
        lines[i] = b'verbose ' + l[len(b'verbose:'):]  # the ':' gone
edited = b'\n'.join(lines)
assert len(edited) == len(text)
open(out, 'wb').write(data.replace(text, edited))
