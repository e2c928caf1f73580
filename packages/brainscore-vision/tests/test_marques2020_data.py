"""Marques2020 data plugin: our grating generator, the rendered stimulus sets and the property assemblies.

Expected values come from outside the code under test: the grating's orientation, frequency and phase are read
back from its pixels with an FFT (closed form of the Fourier coefficient of a sinusoid), the aperture from a
flat grating's bright pixels, the reference pixels from Brain-Score's shipped PNGs (decoded by Pillow), the
assemblies from the raw ``.npz`` and, independently, the raw ``.nc`` opened with xarray, and the De Valois
histograms from ``published_histograms.json`` binned with ``numpy.histogram``.
"""

from __future__ import annotations

import io
import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import xarray as xr
from PIL import Image

import brainscore_vision
from brainio.skipping import require_path
from brainscore_vision.data.marques2020 import (
    StimuliUnavailableError,
    UnknownPropertyError,
    property_bins,
    property_names,
)
from brainscore_vision.data.marques2020.data_packaging.assemblies import (
    RawDataError,
    draw_from_histograms,
    read_property_file,
)
from brainscore_vision.data.marques2020.data_packaging.stimuli import build_stimulus_set, read_table
from brainscore_vision.data.marques2020.gratings import (
    GREY,
    StimulusTableError,
    encode_png,
    render_gratings,
)
from brainscore_vision.utils import LazyLoad, resolve


@pytest.fixture(scope="session")
def marques_raw(raw_data_dir) -> Path:
    return require_path(raw_data_dir / "marques2020", "Marques 2020 raw data")


def grating(size_px=256, degrees=8.0, **parameters):
    """One rendered grating (uint8, shape (size_px, size_px)); defaults: full field, centred, full contrast."""
    row = {"degrees": degrees, "radius": 100.0, "position_x": 0.0, "position_y": 0.0, "orientation": 0.0,
           "phase": 0.0, "contrast": 1.0, "spatial_frequency": 1.0, **parameters}
    return render_gratings(pd.DataFrame([row]), size_px)[0]


# -- the generator --------------------------------------------------------------------------------------------
# (kx, ky) cycles across the 8 deg field along x (columns) and y (rows, downwards): the grating lies exactly on
# one FFT bin, with orientation atan2(ky, kx) and frequency hypot(kx, ky) / 8 cycles/deg
@pytest.mark.parametrize("kx, ky, phase, contrast", [(16, 0, 0.0, 1.0), (0, 12, 45.0, 1.0), (6, 8, 200.0, 0.5),
                                                     (-5, 12, 300.0, 0.8)])
def test_orientation_frequency_and_phase_recovered_by_fft(kx, ky, phase, contrast):
    size_px, degrees = 256, 8.0
    orientation = np.degrees(np.arctan2(ky, kx)) % 180
    image = grating(size_px, degrees, orientation=orientation, spatial_frequency=np.hypot(kx, ky) / degrees,
                    phase=phase, contrast=contrast).astype(float)
    spectrum = np.fft.fft2(image - image.mean())
    peak_row, peak_column = np.unravel_index(np.argmax(np.abs(spectrum)), spectrum.shape)
    found_ky, found_kx = [(k + size_px // 2) % size_px - size_px // 2 for k in (peak_row, peak_column)]
    if (found_ky, found_kx) != (ky, kx):  # the conjugate peak of a real image has the same height
        found_ky, found_kx = -found_ky, -found_kx
    assert (found_kx, found_ky) == (kx, ky)
    assert np.degrees(np.arctan2(found_ky, found_kx)) % 180 == pytest.approx(orientation)
    # for v = A sin(2 pi (kx c + ky r) / N + psi): F[ky, kx] = N^2 A exp(i psi) / (2i), and pixel (r, c) lies at
    # ((c - N/2), (r - N/2)) / ppd, so psi = phase - pi (kx + ky)
    coefficient = spectrum[ky % size_px, kx % size_px]
    recovered_phase = np.angle(coefficient) + np.pi / 2 + np.pi * (kx + ky)
    assert np.angle(np.exp(1j * (recovered_phase - np.radians(phase)))) == pytest.approx(0, abs=0.01)
    # amplitude 255 / 2 x contrast, up to the truncation to integers (uniform error of spread 1)
    assert 2 * np.abs(coefficient) / size_px ** 2 == pytest.approx(127.5 * contrast, abs=0.6)


@pytest.mark.parametrize("radius, position_x, position_y", [(1.0, 0.5, 0.5), (0.25, -2.5, 1.75), (3.0, 0.0, 0.0)])
def test_aperture_radius_and_position(radius, position_x, position_y):
    size_px, degrees = 672, 12.0
    ppd = size_px / degrees
    # sin(90 deg) ~ 1 over a nearly flat grating: every pixel inside the disc is (almost) white, the rest grey
    image = grating(size_px, degrees, radius=radius, position_x=position_x, position_y=position_y, phase=90.0,
                    spatial_frequency=1e-6)
    assert set(np.unique(image)) <= {GREY, 254, 255}
    rows, columns = np.nonzero(image >= 254)
    # x to the right and y downwards from the image centre, in degrees
    assert columns.mean() == pytest.approx(size_px / 2 + position_x * ppd, abs=0.5)
    assert rows.mean() == pytest.approx(size_px / 2 + position_y * ppd, abs=0.5)
    area, perimeter = np.pi * (radius * ppd) ** 2, 2 * np.pi * radius * ppd
    assert abs(len(rows) - area) < perimeter  # pixel counting error stays within a one-pixel rim
    extent = (columns.max() - columns.min() + 1) / ppd
    assert extent == pytest.approx(2 * radius, abs=1.5 / ppd)


def test_vertical_bars_at_orientation_zero_and_centre_value():
    image = grating(256, 8.0, orientation=0.0, spatial_frequency=2.0, phase=30.0)
    assert (image == image[:1]).all()  # luminance varies along x only: vertical bars
    # the centre pixel (x = y = 0) holds sin(phase): floor((0.5 + 1) / 2 * 255) = 191
    assert image[128, 128] == 191


def test_png_bytes_deterministic_and_lossless(marques_raw, tmp_path):
    table = read_table(marques_raw / "stimuli" / "image_dicarlo_Marques2020_orientation.csv")
    subset = table.iloc[::37].assign(image_id=np.arange(len(table.iloc[::37])))  # 24 rows, all radii and SFs
    sets = []
    for folder in ("a", "b"):
        raw = tmp_path / folder / "raw"
        (raw / "stimuli").mkdir(parents=True)
        subset.to_csv(raw / "stimuli" / "image_dicarlo_Marques2020_orientation.csv", index=False)
        sets.append(build_stimulus_set(raw, "orientation", tmp_path / folder / "images"))
    from brainio.files import sha1_hash

    for stimulus_id in sets[0]["stimulus_id"]:
        paths = [Path(stimulus_set.get_stimulus(stimulus_id)) for stimulus_set in sets]
        assert sha1_hash(paths[0]) == sha1_hash(paths[1])
        decoded = np.asarray(Image.open(paths[0]))
        row = subset.iloc[int(stimulus_id)]
        np.testing.assert_array_equal(decoded, render_gratings(pd.DataFrame([row]), 672)[0])


def test_encode_png_refuses_other_arrays():
    with pytest.raises(ValueError, match="2-d uint8"):
        encode_png(np.zeros((4, 4, 3), dtype=np.uint8))


# -- the packaged stimulus sets -------------------------------------------------------------------------------
def _shipped_images(zip_path: Path) -> dict[str, np.ndarray]:
    with zipfile.ZipFile(zip_path) as archive:
        return {name: np.asarray(Image.open(io.BytesIO(archive.read(name)))) for name in archive.namelist()}


def test_orientation_set_agrees_with_shipped_images(marques_raw):
    """Every generated orientation grating against Brain-Score's PNG of the same row (README: max 0, mean 0)."""
    stimuli = brainscore_vision.load_stimulus_set("Marques2020_orientation")
    table = pd.read_csv(marques_raw / "stimuli" / "image_dicarlo_Marques2020_orientation.csv")
    shipped = _shipped_images(marques_raw / "stimuli" / "image_dicarlo_Marques2020_orientation.zip")
    assert len(stimuli) == len(table) == len(shipped) == 864
    largest, total, pixels = 0, 0, 0
    for image_id, filename in zip(table["image_id"], table["filename"]):
        ours = np.asarray(Image.open(stimuli.get_stimulus(str(image_id))))
        assert ours.shape == shipped[filename].shape == (672, 672)
        difference = np.abs(ours.astype(np.int16) - shipped[filename])
        largest, total, pixels = max(largest, int(difference.max())), total + int(difference.sum()), pixels + ours.size
    # tolerance: one grey level where a platform's sin rounds across an integer before truncation, on at most
    # one pixel in ten thousand; this stack reproduces all 864 images exactly
    assert largest <= 1
    assert total / pixels <= 1e-4


def test_blank_set_agrees_with_shipped_blank(marques_raw):
    stimuli = brainscore_vision.load_stimulus_set("Marques2020_blank")
    (shipped,) = _shipped_images(marques_raw / "stimuli" / "image_dicarlo_Marques2020_blank.zip").values()
    ours = np.asarray(Image.open(stimuli.get_stimulus("0")))
    assert ours.shape == shipped.shape == (448, 448)
    np.testing.assert_array_equal(ours, shipped)
    assert (ours == GREY).all()


def test_stimulus_set_keeps_the_table_columns(marques_raw):
    stimuli = brainscore_vision.load_stimulus_set("Marques2020_orientation")
    table = pd.read_csv(marques_raw / "stimuli" / "image_dicarlo_Marques2020_orientation.csv")
    assert stimuli.identifier == "Marques2020_orientation"
    np.testing.assert_array_equal(stimuli["stimulus_id"].to_numpy(), table["image_id"].astype(str).to_numpy())
    for column in ("orientation", "spatial_frequency", "phase", "radius", "position_x", "position_y", "contrast",
                   "degrees"):
        np.testing.assert_allclose(stimuli[column].to_numpy(dtype=float), table[column].to_numpy(dtype=float),
                                   err_msg=column)


def test_missing_column_names_column_and_file(tmp_path, marques_raw):
    table = pd.read_csv(marques_raw / "stimuli" / "image_dicarlo_Marques2020_size.csv").drop(columns="phase")
    path = tmp_path / "broken.csv"
    table.to_csv(path, index=False)
    with pytest.raises(StimulusTableError, match=r"broken\.csv.*missing column\(s\) \['phase'\]"):
        read_table(path)
    with pytest.raises(StimulusTableError, match=r"missing column\(s\) \['phase'\]"):
        render_gratings(table, 64)


def test_freeman_ziemba_stimuli_unavailable_with_a_clear_error(monkeypatch):
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # no S3 reachable, as offline
    with pytest.raises(StimuliUnavailableError, match=r"'FreemanZiemba2013_properties' is not available.*texture"
                                                      r".*brainscore-storage/brainio-brainscore.*"
                                                      r"stimulus_FreemanZiemba2013_properties"):
        brainscore_vision.load_stimulus_set("FreemanZiemba2013_properties")


# -- the property assemblies ----------------------------------------------------------------------------------
RENAMED = {"circular_variance_bandwith_ratio": "circular_variance_bandwidth_ratio",
           "orthogonal_preferred_ratio_bandwith_ratio": "orthogonal_preferred_ratio_bandwidth_ratio"}
FILES = [("Ringach2002", "assy_shapley_Ringach2002", "shapley.Ringach2002", (304, 12), "Marques2020_orientation"),
         ("Cavanaugh2002a", "assy_movshon_Cavanaugh2002a", "movshon.Cavanaugh2002a", (190, 5), "Marques2020_size"),
         ("Schiller1976c", "assy_schiller_Schiller1976c", "schiller.Schiller1976c", (87, 2),
          "Marques2020_spatial_frequency"),
         ("FreemanZiemba2013_V1_properties", "assy_movshon_FreemanZiemba2013_V1_properties",
          "movshon.FreemanZiemba2013_V1_properties", (102, 9), "FreemanZiemba2013_properties"),
         ("DeValois1982a-draw2020", "assy_devalois_DeValois1982a", "devalois.DeValois1982a", (246, 1),
          "Marques2020_orientation"),
         ("DeValois1982b-draw2020", "assy_devalois_DeValois1982b", "devalois.DeValois1982b", (232, 1),
          "Marques2020_spatial_frequency")]


@pytest.mark.parametrize("identifier, stem, variable, shape, stimulus_set", FILES)
def test_assembly_equals_raw_files(identifier, stem, variable, shape, stimulus_set, marques_raw):
    assembly = brainscore_vision.load_dataset(identifier)
    assert type(assembly).__name__ == "PropertyAssembly"
    assert assembly.dims == ("neuroid", "neuronal_property") and assembly.shape == shape
    assert set(assembly["region"].values) == {"V1"}
    with np.load(marques_raw / "assemblies" / f"{stem}.npz", allow_pickle=False) as raw:
        names = [RENAMED.get(str(name), str(name)) for name in raw["neuronal_property"]]
        assert property_names(assembly) == names
        np.testing.assert_array_equal(assembly.values, raw["values"])
        np.testing.assert_array_equal(assembly["neuroid_id"].values, raw["neuroid_id"])
        assert assembly.attrs["number_of_trials"] == int(raw["number_of_trials"])
    with xr.open_dataset(marques_raw / "assemblies" / f"{stem}.nc") as dataset:  # the other raw copy
        source = dataset[variable].load()
    np.testing.assert_array_equal(assembly.values, source.values)
    for name in source["neuronal_property_"].values:
        np.testing.assert_array_equal(property_bins(assembly, RENAMED.get(str(name), str(name))),
                                      source.attrs[f"{name}_bins"])
    assert assembly.attrs["stimulus_set_identifier"] == stimulus_set
    lazy = assembly.attrs["stimulus_set"]
    assert isinstance(lazy, LazyLoad) and not lazy.is_loaded  # the values load without any image


@pytest.mark.parametrize("identifier, property_name, n", [("DeValois1982a", "preferred_orientation", 385),
                                                          ("DeValois1982b", "peak_spatial_frequency", 363)])
def test_devalois_draw_reproduces_published_histogram(identifier, property_name, n, marques_raw):
    published = json.loads((marques_raw / "published_histograms.json").read_text())
    spec = published["assemblies"][identifier]["properties"][property_name]
    assembly = brainscore_vision.load_dataset(identifier)
    assert assembly.shape == (n, 1) and property_names(assembly) == [property_name]
    bins = property_bins(assembly, property_name)
    np.testing.assert_array_equal(bins, spec["bin_edges"])
    values = assembly.values[:, 0]
    assert np.isfinite(values).all() and bins[0] <= values.min() and values.max() < bins[-1]
    np.testing.assert_array_equal(np.histogram(values, bins=bins)[0], spec["counts"])
    assert len(np.unique(values)) == n  # a continuous draw, not the bin edges
    assert assembly.attrs["stimulus_set_identifier"] == brainscore_vision.load_dataset(
        f"{identifier}-draw2020").attrs["stimulus_set_identifier"]


@pytest.mark.parametrize("identifier, stem", [("Cavanaugh2002a", "assy_movshon_Cavanaugh2002a"),
                                              ("Schiller1976c", "assy_schiller_Schiller1976c")])
def test_draw_bins_like_brainscores_own_draw(identifier, stem, marques_raw):
    """Brain-Score's shipped Cavanaugh/Schiller values are draws from the same histograms: per property, ours
    and theirs fall into the same bins and have the same NaN count."""
    entry = json.loads((marques_raw / "published_histograms.json").read_text())["assemblies"][identifier]
    values, properties, bins = draw_from_histograms(entry, seed=7)
    again, _, _ = draw_from_histograms(entry, seed=7)
    np.testing.assert_array_equal(values, again)
    with np.load(marques_raw / "assemblies" / f"{stem}.npz", allow_pickle=False) as raw:
        shipped = dict(zip([str(name) for name in raw["neuronal_property"]], raw["values"].T))
    for column, name in enumerate(properties):
        ours, theirs = values[:, column], shipped[name]
        assert np.isnan(ours).sum() == np.isnan(theirs).sum(), name
        np.testing.assert_array_equal(np.histogram(ours[~np.isnan(ours)], bins[name])[0],
                                      np.histogram(theirs[~np.isnan(theirs)], bins[name])[0], err_msg=name)


def test_raw_property_file_without_bins_names_file_and_array(tmp_path, marques_raw):
    with np.load(marques_raw / "assemblies" / "assy_schiller_Schiller1976c.npz", allow_pickle=False) as raw:
        arrays = {key: raw[key] for key in raw.files if key != "bins_spatial_frequency_bandwidth"}
    np.savez(tmp_path / "broken.npz", **arrays)
    with pytest.raises(RawDataError, match=r"broken\.npz: missing arrays \['bins_spatial_frequency_bandwidth'\]"):
        read_property_file(tmp_path / "broken.npz")


def test_unknown_property_is_a_clear_error():
    assembly = brainscore_vision.load_dataset("Schiller1976c")
    with pytest.raises(UnknownPropertyError, match=r"'Schiller1976c' has no property 'peak_spatial_frequency'.*"
                                                   r"spatial_frequency_selective"):
        property_bins(assembly, "peak_spatial_frequency")


def test_lazy_stimulus_set_resolves_to_the_registered_set(monkeypatch):
    assembly = brainscore_vision.load_dataset("Cavanaugh2002a")
    stimuli = resolve(assembly.attrs["stimulus_set"])
    assert stimuli.identifier == "Marques2020_size" and len(stimuli) == 1728
    np.testing.assert_allclose(np.unique(stimuli["radius"]), 2.0 ** np.arange(-2.25, 3.5, 0.5) / 2)
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")  # no S3 reachable, as offline
    with pytest.raises(StimuliUnavailableError):
        resolve(brainscore_vision.load_dataset("FreemanZiemba2013_V1_properties").attrs["stimulus_set"])
