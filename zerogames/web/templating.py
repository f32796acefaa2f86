"""The site's Jinja environment: Flask's, tuned for drawing many small regions a second.

`TemplateEnvironment.draw` renders through Jinja's own template internals (`root_render_func`,
`context_class`, `concat`), so jinja2 is pinned in pyproject.toml: a new version is taken on purpose.
"""

from __future__ import annotations

from functools import cached_property
from typing import Any

from flask import templating


class TemplateEnvironment(templating.Environment):
    """Flask's template environment, reading a dict's keys first: the views are plain dicts read as
    `view.turn` thousands of times a second, where Jinja would first try, and fail, an attribute."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict:
            try:
                return obj[attribute]
            except KeyError:
                pass
        return super().getattr(obj, attribute)

    @cached_property
    def flat_globals(self) -> dict[str, Any]:
        """The globals as one plain dict, read on first use (after the app has set them all)."""
        return dict(self.globals)

    @cached_property
    def templates(self) -> dict[str, Any]:
        return {}

    def loaded(self, name: str) -> Any:
        """The template by name, looked up in a plain dict once loaded: Jinja's own cache is shared by
        threads, so each look-up takes a lock and reorders its list. Reloaded as Jinja would when the
        site is told to reload templates (development)."""
        template = None if self.auto_reload else self.templates.get(name)
        if template is None:
            template = self.templates[name] = self.get_template(name)
        return template

    def draw(self, name: str, context: dict[str, Any]) -> str:
        """What `get_template(name).render(context)` gives, without reading the globals, a chain of
        mappings read key by key, into every context anew (twice: once for the values and once for
        their names): a table draws hundreds of regions a second."""
        template = self.loaded(name)
        drawn = self.context_class(self, {**self.flat_globals, **context}, template.name, template.blocks)
        try:
            return self.concat(template.root_render_func(drawn))
        except Exception:
            self.handle_exception()
        finally:
            # A macro the template defines or imports sits in the context it closes over: a cycle, which
            # would leave the context (the room, the view) to the garbage collector. Broken here, it all
            # goes as soon as the region is drawn.
            drawn.vars.clear()
            drawn.exported_vars.clear()
