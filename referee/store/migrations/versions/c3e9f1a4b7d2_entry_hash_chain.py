"""each stored entry's hash, chained to the one before (tamper evidence); a finished game's result kept

Revision ID: c3e9f1a4b7d2
Revises: a7c41e2b9d10
Create Date: 2026-11-23 19:40:00

Entries stored before this revision get their hashes computed here, from the rows as they are now.
"""
from alembic import op
import sqlalchemy as sa


revision = 'c3e9f1a4b7d2'
down_revision = 'a7c41e2b9d10'
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.add_column(sa.Column('hash', sa.String(length=64), nullable=True))
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.add_column(sa.Column('result', sa.JSON(), nullable=True))
        batch_op.add_column(sa.Column('archived', sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.add_column(sa.Column('archived', sa.Boolean(), server_default=sa.false(), nullable=False))
    from referee.engine import chain

    conn = op.get_bind()
    games = sa.table('games', sa.column('id', sa.Integer), sa.column('header', sa.JSON))
    entries = sa.table('entries', sa.column('id', sa.Integer), sa.column('game_id', sa.Integer),
                       sa.column('seq', sa.Integer), sa.column('data', sa.Text), sa.column('hash', sa.String))
    for game_id, header in conn.execute(sa.select(games.c.id, games.c.header)).all():
        head = chain.genesis(header)
        rows = conn.execute(sa.select(entries.c.id, entries.c.seq, entries.c.data)
                            .where(entries.c.game_id == game_id).order_by(entries.c.seq)).all()
        for row_id, seq, data in rows:
            head = chain.link(head, seq, data)
            conn.execute(entries.update().where(entries.c.id == row_id).values(hash=head))


def downgrade():
    with op.batch_alter_table('tournaments', schema=None) as batch_op:
        batch_op.drop_column('archived')
    with op.batch_alter_table('games', schema=None) as batch_op:
        batch_op.drop_column('archived')
        batch_op.drop_column('result')
    with op.batch_alter_table('entries', schema=None) as batch_op:
        batch_op.drop_column('hash')
