"""Where you lost points, on a finished game's replay: the viewer's own decisions weighed by Hard,
worked out once when first asked ("Working out…" until then), kept with the game, shown to nobody else."""

from __future__ import annotations

from tests.web.conftest import on_both_stores, started_with_bots, to_the_end, words
from zerogames import analysis

pytestmark = on_both_stores


def test_a_players_own_decisions_are_weighed_once_and_shown_to_them_alone(player, registry, monkeypatch):
    ann, bob = player("Ann"), player("Bob")
    room = registry.get(started_with_bots(ann))
    to_the_end(ann, room)
    url = f"/replay/{room.code}-1"

    first = ann.get(url).text
    assert "Where you lost points" in first and "Working out…" in first
    assert f'hx-get="{url}/analysis" hx-trigger="load"' in first

    worked_out = []
    analyse = analysis.analyse
    monkeypatch.setattr(analysis, "analyse", lambda *args, **kw: worked_out.append(1) or analyse(*args, **kw))
    part = ann.get(f"{url}/analysis", headers={"HX-Request": "true"})
    assert part.status_code == 200 and "Working out" not in part.text
    stored = registry.store.analyses.of(room.code, 1, 0)
    found = analysis.from_data(stored)
    assert found and worked_out == [1]
    said = words(part.text)
    assert f"Hard weighed your {len(found)} decisions" in said
    for decision in analysis.costliest(found):
        assert f"{decision.cost:.1f} lost" in said

    # Kept: the replay shows it at once, and nothing is worked out again.
    again = words(ann.get(url).text)
    assert "Working out" not in again and f"Hard weighed your {len(found)} decisions" in again
    assert ann.get(f"{url}/analysis").headers["Location"].endswith(f"{url}#analysis-heading")
    assert worked_out == [1]

    # Someone who did not play it sees the replay, not an analysis of anyone's decisions.
    assert "Where you lost points" not in bob.get(url).text
    assert bob.get(f"{url}/analysis", headers={"HX-Request": "true"}).status_code == 403
