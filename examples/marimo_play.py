import marimo

__generated_with = "0.25.2"
app = marimo.App(width="full", app_title="10 to Leave against two bots")


@app.cell(hide_code=True)
def _(mo):
    mo.md(
        r"""
        # Play 10 to Leave against two bots (marimo)

        You are **Ana** (red). **Ben** is the *greedy* bot, **Cy** the *random* bot.
        Choose a card from your hand, press **Play here** under a queue, peek or rotate if
        you like, then press **End turn**; the bots answer. Beside (or below) the table, the
        odds panels follow every turn from your view.
        """
    )
    return


@app.cell
def _():
    import marimo as mo

    from tenleave_widget.widget import play

    return mo, play


@app.cell
def _(mo, play):
    w = play(players=["Ana", "Ben", "Cy"], human=0, bots=["greedy", "random"])
    table = mo.ui.anywidget(w.table)  # the odds panels are drawn by the table itself
    table  # noqa: B018 (a marimo cell shows its last expression)
    return (w,)


if __name__ == "__main__":
    app.run()
