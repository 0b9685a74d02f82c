package isostress.generator.sql;

/**
 * One statement of an SQL transaction on the accounts table ({@link SqlWorkload#TABLE}). The harness renders the
 * SQL around {@link SqlPredicate#sql()} and records {@link SqlPredicate#json()} for the same predicate.
 *
 * @param kind   what the statement does
 * @param where  which rows (select, update, soft delete, delete); null for an insert
 * @param id     insert: the row's id
 * @param grp    insert: the row's group ({@code id mod groups}, so {@code grp} never changes for an id)
 * @param amount update: added to {@code bal}; insert: the new row's {@code bal}
 */
public record SqlStatement(Kind kind, SqlPredicate where, long id, int grp, int amount) {

    /** The statement kinds. */
    public enum Kind {
        /** {@code SELECT * ... WHERE p}. */
        SELECT,
        /** {@code UPDATE ... SET bal = bal + amount WHERE p}. */
        UPDATE,
        /** {@code UPDATE ... SET deleted = TRUE WHERE p}: a soft delete. */
        SOFT_DELETE,
        /** {@code DELETE ... WHERE p}. */
        DELETE,
        /** An upsert of a whole row (id, grp, amount, not deleted): a blind write. */
        INSERT;

        public boolean writes() {
            return this != SELECT;
        }
    }

    public SqlStatement {
        if ((kind == Kind.INSERT) != (where == null)) {
            throw new IllegalArgumentException(kind + (where == null ? " needs" : " takes no") + " predicate");
        }
    }

    public static SqlStatement select(SqlPredicate where) {
        return new SqlStatement(Kind.SELECT, where, 0, 0, 0);
    }

    public static SqlStatement update(SqlPredicate where, int amount) {
        return new SqlStatement(Kind.UPDATE, where, 0, 0, amount);
    }

    public static SqlStatement softDelete(SqlPredicate where) {
        return new SqlStatement(Kind.SOFT_DELETE, where, 0, 0, 0);
    }

    public static SqlStatement delete(SqlPredicate where) {
        return new SqlStatement(Kind.DELETE, where, 0, 0, 0);
    }

    public static SqlStatement insert(long id, int grp, int bal) {
        return new SqlStatement(Kind.INSERT, null, id, grp, bal);
    }
}
