"""the keys the table screen's forms carry: a form sent again with the same key is told its entry was recorded,
once

Revision ID: b1e5d7a3c9f2
Revises: a9d6b3e8c2f4
Create Date: 2026-11-26 16:00:00

"""
from alembic import op
import sqlalchemy as sa


revision = 'b1e5d7a3c9f2'
down_revision = 'a9d6b3e8c2f4'
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        'entry_keys',
        sa.Column('id', sa.Integer(), nullable=False),
        sa.Column('game_id', sa.Integer(), nullable=False),
        sa.Column('key', sa.String(length=64), nullable=False),
        sa.Column('seq', sa.Integer(), nullable=False),
        sa.Column('entries', sa.Integer(), nullable=False),
        sa.Column('body', sa.String(length=64), nullable=False),
        sa.Column('recorded_at', sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(['game_id'], ['games.id'], ondelete='CASCADE'),
        sa.PrimaryKeyConstraint('id'),
        sa.UniqueConstraint('game_id', 'key', name='uq_entry_keys_game_key'),
    )
    op.create_index('ix_entry_keys_game_id', 'entry_keys', ['game_id'])


def downgrade():
    op.drop_index('ix_entry_keys_game_id', table_name='entry_keys')
    op.drop_table('entry_keys')
