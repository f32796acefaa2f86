"""The score-by-round chart: inline SVG drawn on the server (no script, no build). This places the
points; templates/records/_chart.html draws them, with a legend and the figures as a table."""

from __future__ import annotations

from dataclasses import dataclass

# Okabe and Ito's colours, told apart with any colour vision; one per seat (seven at most).
COLOURS = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000")
WIDTH, HEIGHT = 480, 260
LEFT, RIGHT, TOP, BOTTOM = 52, 14, 12, 44


@dataclass(frozen=True)
class Line:
    name: str
    colour: str
    points: str  # the SVG polyline's points, from the zero before the first round
    final: int
    dots: list[tuple[float, float, int]]  # (x, y, score) at the end of each round


@dataclass(frozen=True)
class Chart:
    label: str  # what a round is called ("Round", "Trick")
    series: list[list[int]]
    names: list[str]
    lines: list[Line]
    # (position, text) of the marks along each axis
    x_marks: list[tuple[float, int]]
    y_marks: list[tuple[float, int]]
    zero: float  # where the score 0 is
    width: int = WIDTH
    height: int = HEIGHT
    left: int = LEFT
    right: int = WIDTH - RIGHT
    bottom: int = HEIGHT - BOTTOM
    top: int = TOP


def score_chart(series: list[list[int]], names: list[str], label: str = "Round") -> Chart | None:
    """Each seat's score at the end of each round (`series[r][seat]`), as one line per seat."""
    if not series:
        return None
    rounds = len(series)
    low, high = min(0, *map(min, series)), max(1, *map(max, series))

    def x(index: int) -> float:
        return round(LEFT + (WIDTH - LEFT - RIGHT) * (index + 1) / rounds, 1)

    def y(score: float) -> float:
        return round(TOP + (HEIGHT - TOP - BOTTOM) * (high - score) / (high - low), 1)

    lines = []
    for seat, name in enumerate(names):
        # Equal scores would draw one line over another: each seat's line sits a hair apart.
        apart = (seat - (len(names) - 1) / 2) * 2.5
        dots = [(x(i), round(y(scores[seat]) + apart, 1), scores[seat]) for i, scores in enumerate(series)]
        points = " ".join([f"{LEFT},{round(y(0) + apart, 1)}", *(f"{dx},{dy}" for dx, dy, _ in dots)])
        lines.append(Line(name, COLOURS[seat % len(COLOURS)], points, series[-1][seat], dots))
    every = max(1, rounds // 10)
    x_marks = [(x(index), index + 1) for index in range(0, rounds, every)]
    y_marks = [(y(score), score) for score in sorted({low, 0, high})]
    return Chart(label, series, names, lines, x_marks, y_marks, y(0))


SPARK_WIDTH, SPARK_HEIGHT, SPARK_MARGIN = 160, 40, 3


def sparkline(values: list[float]) -> str:
    """A small line of `values` left to right, as an SVG polyline's points in a SPARK_WIDTH by
    SPARK_HEIGHT box (a single value is a flat line)."""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    steps = max(1, len(values) - 1)
    inner_width, inner_height = SPARK_WIDTH - 2 * SPARK_MARGIN, SPARK_HEIGHT - 2 * SPARK_MARGIN
    points = [
        (SPARK_MARGIN + inner_width * index / steps, SPARK_MARGIN + inner_height * (high - value) / span)
        for index, value in enumerate(values if len(values) > 1 else values * 2)
    ]
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
