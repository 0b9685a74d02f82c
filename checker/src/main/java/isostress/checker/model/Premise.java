package isostress.checker.model;

import java.util.List;

/**
 * A step of an argument that a counterexample rests on, for orders the history does not show directly: a version
 * order the checker derived ("T3's write of x precedes T8's, because the other order closes this cycle"), or one
 * case of a case split over orders left open ("if T3's write precedes T8's, this cycle closes").
 *
 * @param claim what is claimed, in words
 * @param steps the path or cycle that supports it (may be empty when the claim stands alone)
 */
public record Premise(String claim, List<Step> steps) {
    public Premise {
        steps = List.copyOf(steps);
    }
}
