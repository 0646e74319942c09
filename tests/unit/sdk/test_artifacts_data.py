"""Typed artifacts as bytes and summaries: PNG encoding, histograms, curves, matrices, tables."""

import json
import struct
import zlib

import pytest

from axonal import _artifact_data as data


def png_pixels(png: bytes) -> tuple[int, int, int, bytes]:
    """Width, height, colour type and the raw scanlines of an 8-bit PNG."""
    assert png.startswith(b"\x89PNG\r\n\x1a\n")
    chunks, at = {}, 8
    while at < len(png):
        (length,) = struct.unpack(">I", png[at : at + 4])
        tag, body = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        (crc,) = struct.unpack(">I", png[at + 8 + length : at + 12 + length])
        assert crc == zlib.crc32(tag + body) & 0xFFFFFFFF
        chunks[tag] = body
        at += 12 + length
    width, height, depth, color = struct.unpack(">IIBB", chunks[b"IHDR"][:10])
    assert depth == 8
    assert b"IEND" in chunks
    return width, height, color, zlib.decompress(chunks[b"IDAT"])


class FakeArray:
    """What numpy offers that the encoders use."""

    def __init__(self, values):
        self.values = values

    def tolist(self):
        return self.values


def test_grey_pixels_become_a_png():
    width, height, color, raw = png_pixels(data.encode_png([[0, 128, 255], [255, 0, 300]]))
    assert (width, height, color) == (3, 2, 0)
    assert raw == b"\x00\x00\x80\xff" + b"\x00\xff\x00\xff"  # filter byte per row, clipped


def test_rgb_and_rgba_floats_are_scaled():
    _, _, color, raw = png_pixels(data.encode_png([[(1.0, 0.5, 0.0)]]))
    assert (color, raw) == (2, b"\x00\xff\x80\x00")
    _, _, color, raw = png_pixels(data.encode_png([[(0, 0, 0, 1.0), (True, False, 0, 0)]]))
    assert (color, raw) == (6, b"\x00\x00\x00\x00\xff\xff\x00\x00\x00")


@pytest.mark.parametrize(
    "rows",
    [[], [[]], [[1, 2], [3]], [[(1, 2, 3, 4, 5)]], [[(1, 2, 3), (1, 2)]]],
)
def test_ragged_or_empty_images_are_refused(rows):
    with pytest.raises(ValueError, match=r"row|column|width|channels"):
        data.encode_png(rows)


def test_image_accepts_arrays_bytes_and_paths(tmp_path):
    from_array = data.image(FakeArray([[[0, 0, 0], [255, 255, 255]]]))
    assert from_array.suffix == ".png"
    assert from_array.summary == {"format": "png", "width": 2, "height": 1}
    path = tmp_path / "x.png"
    path.write_bytes(from_array.data)
    assert data.image(path).data == data.image(str(path)).data == from_array.data
    jpeg = data.image(b"\xff\xd8\xff\xe0rest")
    assert (jpeg.suffix, jpeg.summary) == (".jpg", {"format": "jpeg"})
    with pytest.raises(ValueError, match="PNG, JPEG"):
        data.image(b"not an image")


def test_histogram_counts_values_like_numpy():
    encoded = data.histogram([0, 1, 2, 3, 4, 5, 6, 7, 8, 10], bins=5)
    summary = encoded.summary
    assert summary["counts"] == [2, 2, 2, 2, 2]
    assert summary["edges"] == [0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
    assert (summary["count"], summary["min"], summary["max"]) == (10, 0.0, 10.0)
    assert json.loads(encoded.data) == summary
    same = data.histogram(FakeArray([[3.0, 3.0], [3.0, 3.0]]), bins=2).summary
    assert (same["counts"], same["edges"]) == ([0, 4], [2.5, 3.0, 3.5])


def test_histogram_summary_shrinks_when_too_big():
    encoded = data.histogram(list(range(5000)), bins=2000)
    assert "counts" not in encoded.summary
    assert encoded.summary["count"] == 5000
    assert len(json.loads(encoded.data)["counts"]) == 2000


@pytest.mark.parametrize("values", [[], [1.0, float("nan")], ["a"], [True]])
def test_bad_histogram_values_are_refused(values):
    with pytest.raises(ValueError, match=r"value|finite|numbers"):
        data.histogram(values)


def test_curve_keeps_every_point_and_summarises_a_hundred():
    xs = [i / 999 for i in range(1000)]
    encoded = data.curve(xs, [x * x for x in xs], annotation="AUC=0.33")
    whole = json.loads(encoded.data)
    assert len(whole["x"]) == 1000
    assert whole["annotation"] == "AUC=0.33"
    summary = encoded.summary
    assert summary["points"] == 1000
    assert len(summary["x"]) == len(summary["y"]) == 100
    assert (summary["x"][0], summary["x"][-1]) == (0.0, 1.0)
    with pytest.raises(ValueError, match="as long"):
        data.curve([1, 2], [1])


def test_confusion_matrix_shape_is_checked():
    encoded = data.confusion(["cat", "dog"], ["cat", "dog"], FakeArray([[5, 1], [2, 7]]))
    assert encoded.summary == {
        "x_labels": ["cat", "dog"], "y_labels": ["cat", "dog"], "z": [[5.0, 1.0], [2.0, 7.0]]
    }  # fmt: skip
    with pytest.raises(ValueError, match="2 rows"):
        data.confusion(["a", "b"], ["a", "b"], [[1, 2]])
    big = data.confusion(list(range(100)), list(range(100)), [[1] * 100] * 100)
    assert big.summary == {"shape": [100, 100]}


def test_dataframes_from_dicts_and_frames():
    encoded = data.dataframe([{"a": 1, "b": "x"}, {"a": 2, "c": True}])
    assert encoded.data.decode().splitlines() == ["a,b,c", "1,x,", "2,,True"]
    assert encoded.summary == {"rows": 2, "columns": ["a", "b", "c"]}

    class Frame:
        columns = ("x", "y")

        def __len__(self):
            return 1

        def to_csv(self, index):
            assert index is False
            return "x,y\n1,2\n"

    assert data.dataframe(Frame()).summary == {"rows": 1, "columns": ["x", "y"]}
    with pytest.raises(TypeError, match="DataFrame"):
        data.dataframe("a,b")


def test_text_summary_previews():
    encoded = data.text("é" * 500)
    assert encoded.data.decode() == "é" * 500
    assert encoded.summary == {"chars": 500, "preview": "é" * 200}
