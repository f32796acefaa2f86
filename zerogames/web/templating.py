"""The site's Jinja environment: Flask's, tuned for drawing many small regions a second.

`TemplateEnvironment.draw` renders through Jinja's own template internals (`root_render_func`,
`context_class`, `concat`, the compiled module's `escape`), and escapes through markupsafe's own
(`_escape_inner`): jinja2 and markupsafe are pinned in pyproject.toml, a new version taken on purpose.
"""

from __future__ import annotations

from functools import cached_property
from types import FunctionType
from typing import Any

from flask import templating
from jinja2 import Template
from jinja2.runtime import Context, Macro
from jinja2.utils import missing
from markupsafe import Markup, _escape_inner, escape

# A Markup made of a string already safe, without Markup's own constructor (which asks the string
# whether it has __html__ first).
_safe = str.__new__


def quick_escape(value: Any) -> Markup:
    """markupsafe's escape, for what a table's regions print: its text and numbers, and drawings
    already safe. A region prints a few dozen values, each escaped through two Python calls (escape,
    then Markup's constructor); here the common kinds take one, the same Markup made."""
    kind = type(value)
    if kind is str:
        return _safe(Markup, _escape_inner(value))
    if kind is Markup:
        return value
    if kind is int:
        return _safe(Markup, str(value))  # digits and a sign: nothing to escape
    return escape(value)


class QuickTemplate(Template):
    """A compiled template whose output is escaped by quick_escape: the compiled code's `escape` is
    a name of its own module (Jinja's generated code imports it from jinja2.runtime)."""

    @classmethod
    def _from_namespace(cls, environment: Any, namespace: Any, globals: Any) -> Template:
        if "escape" in namespace:
            namespace["escape"] = quick_escape
        return super()._from_namespace(environment, namespace, globals)


class DrawingContext(Context):
    """Jinja's context, calling a plain function or a macro straight away: Jinja's own `call` first
    asks every callable (and its `__call__`) whether it wants the context or the environment passed,
    a dozen attribute look-ups for each of the hundreds of calls (a card's name, a seat's badges) a
    table's regions make per change. Only a function marked so (`pass_context` and the like) wants
    them, and it still goes Jinja's way."""

    def call(__self, __obj: Any, *args: Any, **kwargs: Any) -> Any:
        kind = type(__obj)
        if kind is Macro or (kind is FunctionType and "jinja_pass_arg" not in __obj.__dict__):
            if kwargs:
                # Jinja hands the variables of the loop and block a call is made in to every callable;
                # only one that takes the context uses them.
                kwargs.pop("_loop_vars", None)
                kwargs.pop("_block_vars", None)
            if (
                kind is Macro
                and not kwargs
                and len(args) <= __obj._argument_count
                and not (__obj.caller or __obj.catch_kwargs or __obj.catch_varargs)
            ):
                # Arguments given by position alone (those left out take their defaults, `missing`
                # to the macro's function), and no caller or catch-all: Jinja's own Macro.__call__
                # would sort them (a list, a loop over the names, five checks) to end where this
                # starts, at the macro's function, its output marked safe.
                drawn = __obj._func(*args, *(missing,) * (__obj._argument_count - len(args)))
                return _safe(Markup, drawn) if __obj._default_autoescape else drawn
            try:
                return __obj(*args, **kwargs)
            except StopIteration:
                return __self.environment.undefined(
                    "value was undefined because a callable raised a StopIteration exception"
                )
        return super().call(__obj, *args, **kwargs)


class TemplateEnvironment(templating.Environment):
    """Flask's template environment, reading a dict's keys first: the views are plain dicts read as
    `view.turn` thousands of times a second, where Jinja would first try, and fail, an attribute.
    So are dicts of other kinds: a hand's bids, legal actions the rules share (`action.bid`), cost
    two failed attribute look-ups each when only plain dicts were read this way (a fifth of the
    bidder's hand)."""

    context_class = DrawingContext
    template_class = QuickTemplate

    def getattr(self, obj: Any, attribute: str) -> Any:
        if isinstance(obj, dict):
            try:
                return obj[attribute]
            except KeyError:
                pass
        try:
            return getattr(obj, attribute)  # a seat's or a room's field: Jinja's own first try, inlined
        except AttributeError:
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
            template = self.templates[name] = super().get_template(name)
        return template

    def get_template(self, name: Any, parent: str | None = None, globals: Any = None) -> Any:
        """As Jinja's, through the plain dict (`loaded`) for a template named without globals of its
        own: what a region's `{% from ... import %}` asks for at every draw."""
        if globals is None and type(name) is str:
            return self.loaded(self.join_path(name, parent) if parent is not None else name)
        return super().get_template(name, parent, globals)

    @cached_property
    def pieces(self) -> dict[tuple[Any, ...], str]:
        return {}

    def draw_once(self, name: str, **facts: Any) -> str:
        """A small piece (a card's button) drawn from `facts` alone, once per process for each set of
        them: a region made of dozens of such pieces joins them instead of drawing each again. The
        facts must be few in their combinations (a card, whether it is lit), for every set is kept."""
        key = (name, *facts.items())
        piece = None if self.auto_reload else self.pieces.get(key)
        if piece is None:
            piece = self.pieces[key] = self.draw(name, facts)
        return piece

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
